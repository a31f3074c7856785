"""A read-only dict for the engine's frozen results (payouts, shares, shown hands).

It is a real dict (so `==`, `json.dumps` and `dict(...)` work) that refuses changes and hashes.
"""

from typing import Any, NoReturn, TypeVar

_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenDict(dict[_K, _V]):
    """A dict that cannot be changed after it is built; hashable when its values are."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("FrozenDict cannot be changed")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    # dict declares itself unhashable (__hash__ = None); a frozen one can hash its items.
    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type["FrozenDict[Any, Any]"], tuple[dict[_K, _V]]]:
        return (FrozenDict, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


EMPTY: FrozenDict[Any, Any] = FrozenDict()

"""A read-only dict for the engine's frozen results (payouts, shares, shown hands).

It is a real dict (so `==`, `json.dumps` and `dict(...)` work) that refuses changes and hashes.
"""


class FrozenDict(dict):
    """A dict that cannot be changed after it is built; hashable when its values are."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("FrozenDict cannot be changed")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:
        return hash(frozenset(self.items()))

    def __reduce__(self):
        return (FrozenDict, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenDict({dict.__repr__(self)})"


EMPTY = FrozenDict()

"""The lobby a page at a time: a player's view (a filter and a page number) read from the database
as one bounded page of rooms with their figures, and the totals beside it, whatever the number of
rooms on the site. The lobby socket (lobby/relay.py), the lobby page and GET /lobby/rooms/ all read
it through `rooms_page`, cached a moment per view in the process's cache (Django's, in memory:
CASINO_LOBBY_CACHE_SECONDS), since the figures' queries are the dear part (docs/decisions.md,
Lobby).
"""

import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from casino.errors import DomainError
from holdem.models import Seat, Table, TableKind, TableStatus, WaitingEntry
from holdem.selectors.game_state import stakes_label
from holdem.selectors.lobby import NO_FIGURES, room_figures, room_summary
from holdem.selectors.multi_table import scheduled_listed
from holdem.selectors.tournaments import sit_and_gos_listed
from holdem.table_options import Blinds

# Rooms on one page: the first frame stays near 17 KB however many rooms the site has.
PAGE_SIZE = 50
# A page number past this is refused (50 pages of 50 already cover a site of 2,500 rooms; a
# client asking for page 10,000,000 is not browsing).
MAX_PAGE = 100_000
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
KINDS = ("all", "cash", "sit_and_go")
MAX_FREE = 10
# "1,000/2,000" or "dynamic 5%": stakes_label's two shapes.
STAKES_PAIR = re.compile(r"(\d{1,3}(?:,\d{3})*|\d+)/(\d{1,3}(?:,\d{3})*|\d+)")
STAKES_DYNAMIC = re.compile(r"dynamic (\d{1,3})%")
VIEW_FIELDS = ("structures", "stakes", "free", "hide_full", "hide_empty", "kind", "page")


@dataclass(frozen=True, slots=True)
class LobbyView:
    """What a player asked the lobby for (docs/protocol.md, `lobby_view`)."""

    structures: tuple[str, ...] = STRUCTURES
    stakes: str = ""
    free: int = 0
    hide_full: bool = False
    hide_empty: bool = False
    kind: str = "all"
    page: int = 1

    @property
    def key(self) -> str:
        parts = [",".join(self.structures), self.stakes, self.free, self.hide_full]
        parts += [self.hide_empty, self.kind, self.page]
        return "lobby.page:" + "|".join(str(part) for part in parts).replace(" ", "_")

    @property
    def seats_needed(self) -> int:
        """Free seats a room needs to be listed: hiding full rooms asks for one."""
        return max(self.free, 1 if self.hide_full else 0)

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in VIEW_FIELDS} | {
            "structures": list(self.structures)
        }


DEFAULT_VIEW = LobbyView()


def lobby_view(data: Mapping[str, Any]) -> LobbyView:
    """The view a client sent (every field optional: the default), or DomainError("bad_view")
    naming each field at fault; nothing is guessed."""
    problems: dict[str, str] = {}
    unknown = sorted(set(data) - set(VIEW_FIELDS))
    for name in unknown:
        problems[name] = "not a field of the lobby's view"
    values: dict[str, Any] = {}
    structures = data.get("structures", list(STRUCTURES))
    if not isinstance(structures, list) or not all(
        isinstance(s, str) and s in STRUCTURES for s in structures
    ):
        problems["structures"] = f"a list of {', '.join(STRUCTURES)}"
    else:
        values["structures"] = tuple(s for s in STRUCTURES if s in structures)
    stakes = data.get("stakes", "")
    if not isinstance(stakes, str) or (
        stakes and not (STAKES_PAIR.fullmatch(stakes) or STAKES_DYNAMIC.fullmatch(stakes))
    ):
        problems["stakes"] = 'a stakes label such as "50/100" or "dynamic 5%", or "" for any'
    else:
        values["stakes"] = stakes
    for name, top in (("free", MAX_FREE), ("page", MAX_PAGE)):
        value = data.get(name, 0 if name == "free" else 1)
        low = 0 if name == "free" else 1
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= top:
            problems[name] = f"a whole number from {low} to {top}"
        else:
            values[name] = value
    for name in ("hide_full", "hide_empty"):
        value = data.get(name, False)
        if not isinstance(value, bool):
            problems[name] = "true or false"
        else:
            values[name] = value
    kind = data.get("kind", "all")
    if kind not in KINDS:
        problems["kind"] = f"one of {', '.join(KINDS)}"
    else:
        values["kind"] = kind
    if problems:
        said = "; ".join(f"{name}: {problem}" for name, problem in problems.items())
        raise DomainError("bad_view", f"the lobby cannot show that view ({said})", fields=problems)
    return LobbyView(**values)


def lobby_view_from_query(query: Mapping[str, list[str]]) -> LobbyView:
    """The view GET /lobby/rooms/ was asked for: `structure` repeated (none given: all; one
    empty: none), `stakes`, `free`, `hide_full` and `hide_empty` (1 or 0), `kind`, `page`."""
    data: dict[str, Any] = {}
    for name, values in query.items():
        value = values[-1] if values else ""
        if name == "structure":
            data["structures"] = [v for v in values if v]
        elif name in ("free", "page"):
            data[name] = int(value) if value.isdigit() and len(value) < 10 else value
        elif name in ("hide_full", "hide_empty"):
            data[name] = {"1": True, "0": False}.get(value, value)
        else:
            data[name] = value
    return lobby_view(data)


def stakes_filter(label: str) -> Q:
    """The rooms whose stakes_label is `label`, in SQL."""
    pair = STAKES_PAIR.fullmatch(label)
    if pair:
        small, big = (int(group.replace(",", "")) for group in pair.groups())
        fixed = Q(structure="fixed_limit", small_bet=small, big_bet=big)
        blinds = ~Q(structure="fixed_limit") & ~Q(blinds=Blinds.DYNAMIC)
        return fixed | (blinds & Q(small_blind=small, big_blind=big))
    dynamic = STAKES_DYNAMIC.fullmatch(label)
    if dynamic:
        percent = int(dynamic.group(1))
        return ~Q(structure="fixed_limit") & Q(blinds=Blinds.DYNAMIC, dynamic_blind_percent=percent)
    return Q(pk__in=[])


def room_matches(room: Mapping[str, Any], view: LobbyView) -> bool:
    """Whether the lobby lists `room` (room_summary's shape) under `view`: the filter of
    `open_rooms`, in Python, for the rooms the relay hears of."""
    if view.kind == "sit_and_go" or room.get("status") == TableStatus.CLOSED:
        return False
    if room.get("structure") not in view.structures:
        return False
    if view.stakes and room.get("stakes") != view.stakes:
        return False
    taken = room.get("taken", 0)
    free = room.get("seats", 0) - taken - room.get("reserved", 0)
    if free < view.seats_needed:
        return False
    return not (view.hide_empty and taken == 0)


def _count(queryset: QuerySet[Any]) -> Coalesce:
    """How many rows of `queryset` (filtered on OuterRef("pk")) each room has, 0 for none."""
    return Coalesce(
        Subquery(queryset.order_by().values("table_id").annotate(n=Count("id")).values("n")),
        Value(0),
        output_field=IntegerField(),
    )


def open_rooms(view: LobbyView = DEFAULT_VIEW) -> QuerySet[Table]:
    """The open cash rooms the view lists, in the site's order (by id)."""
    rooms = Table.objects.exclude(status=TableStatus.CLOSED).filter(kind=TableKind.CASH)
    if view.kind == "sit_and_go":
        return rooms.none()
    if view.structures != STRUCTURES:
        rooms = rooms.filter(structure__in=view.structures)
    if view.stakes:
        rooms = rooms.filter(stakes_filter(view.stakes))
    if view.seats_needed or view.hide_empty:
        # One join grouped by the room's id: a correlated count per room took seconds at 30,000.
        rooms = rooms.annotate(taken_now=Count("seat_set"))
    if view.seats_needed:
        held = WaitingEntry.objects.filter(table_id=OuterRef("pk"), offered_seat__isnull=False)
        rooms = rooms.annotate(held_now=_count(held)).filter(
            seats__gte=F("taken_now") + F("held_now") + view.seats_needed
        )
    if view.hide_empty:
        rooms = rooms.filter(Q(taken_now__gt=0))  # (an annotation: the type checker cannot see it)
    return rooms.order_by("id")


def lobby_totals() -> dict[str, Any]:
    """What every view shows beside its page: the open rooms, the players seated in them, and the
    stakes the filter offers (those of the open rooms, smallest first). Shared by every view
    and cached as a page is, with no `not_before`: they may be a moment old in any page."""
    cached = cache.get("lobby.totals")
    if cached is not None:
        return dict(cached)
    rooms = open_rooms()
    labels = {
        stakes_label(Table(**values))
        # (Unordered: DISTINCT would take the order's id in and return every room.)
        for values in rooms.order_by()
        .values(
            "structure",
            "blinds",
            "small_blind",
            "big_blind",
            "small_bet",
            "big_bet",
            "dynamic_blind_percent",
        )
        .distinct()
    }
    totals = {
        "rooms": rooms.count(),
        "players": Seat.objects.filter(table__in=rooms.values("pk")).count(),
        "stakes": sorted(labels, key=stakes_order),
    }
    cache.set("lobby.totals", totals, settings.CASINO_LOBBY_CACHE_SECONDS)
    return dict(totals)


def stakes_order(label: str) -> tuple[int, str]:
    """The big blind (fixed limit: the big bet) a label names, then the label: dynamic first."""
    pair = STAKES_PAIR.fullmatch(label)
    return (int(pair.group(2).replace(",", "")) if pair else 0, label)


def rooms_page(view: LobbyView = DEFAULT_VIEW, not_before: float | None = None) -> dict[str, Any]:
    """One page of the rooms `view` lists, each with its figures, and the totals: `matching`
    (rooms under the filter), `rooms` (open rooms in all), `players` (seated in them).
    A page past the last is the last. `read_at` (time.time()): when the read began; a page read
    in this process within CASINO_LOBBY_CACHE_SECONDS (the cache: a moment, so that a crowd
    asking for the same page at once costs one read) is served again, unless it began before `not_before`."""
    cached = cache.get(view.key)
    if cached is not None and (not_before is None or cached["read_at"] >= not_before):
        return dict(cached)
    read_at = time.time()
    listed = open_rooms(view)
    matching = listed.count()
    pages = max(1, -(-matching // PAGE_SIZE))
    page = min(view.page, pages)
    start = (page - 1) * PAGE_SIZE
    tables = list(listed.defer("sent_view")[start : start + PAGE_SIZE])
    ids = [table.pk for table in tables]
    seats: dict[int, list[Seat]] = {pk: [] for pk in ids}
    for seat in Seat.objects.filter(table_id__in=ids).select_related("user").order_by("number"):
        seats[seat.table_id].append(seat)
    figures = room_figures(table_ids=ids) if ids else {}
    rooms = [{**room_summary(t, seats[t.pk]), **figures.get(t.pk, NO_FIGURES)} for t in tables]
    totals = lobby_totals()
    stakes = totals.pop("stakes")
    result = {
        "read_at": read_at,
        "page": page,
        "pages": pages,
        "page_size": PAGE_SIZE,
        "rooms": rooms,
        "totals": {"matching": matching, **totals},
        "stakes": stakes,
    }
    cache.set(view.key, result, settings.CASINO_LOBBY_CACHE_SECONDS)
    return dict(result)


def lobby_page_frame(
    view: LobbyView,
    page: Mapping[str, Any],
    sit_and_gos: Mapping[str, Any],
    tournaments: Mapping[str, Any],
) -> dict[str, Any]:
    """The `lobby` frame (docs/protocol.md) of a page read and the two tournament lists: the Sit &
    Gos and the scheduled tournaments (none of either under the `cash` view)."""
    rooms_only = view.kind == "cash"
    return {
        "type": "lobby",
        "view": {**view.as_dict(), "page": page["page"]},
        "page": page["page"],
        "pages": page["pages"],
        "page_size": page["page_size"],
        "rooms": page["rooms"],
        "totals": page["totals"],
        "stakes": page["stakes"],
        "sit_and_gos": [] if rooms_only else sit_and_gos["sit_and_gos"],
        "sit_and_gos_total": sit_and_gos["total"],
        "tournaments": [] if rooms_only else tournaments["tournaments"],
        "tournaments_total": tournaments["total"],
    }


def _list_page(key: str, read: Any, not_before: float | None) -> dict[str, Any]:
    """One of the lobby's tournament lists, `key`, as `read(PAGE_SIZE)` lists it (the first
    PAGE_SIZE, and how many in all), cached a moment as rooms_page is."""
    cached = cache.get(f"lobby.{key}")
    if cached is not None and (not_before is None or cached["read_at"] >= not_before):
        return dict(cached)
    read_at = time.time()
    listed, total = read(PAGE_SIZE)
    result = {"read_at": read_at, key: listed, "total": total}
    cache.set(f"lobby.{key}", result, settings.CASINO_LOBBY_CACHE_SECONDS)
    return dict(result)


def sit_and_gos_page(not_before: float | None = None) -> dict[str, Any]:
    """The Sit & Go list as the lobby shows it, bounded (sit_and_gos_listed), cached a moment as
    rooms_page is."""
    return _list_page("sit_and_gos", sit_and_gos_listed, not_before)


def tournaments_page(not_before: float | None = None) -> dict[str, Any]:
    """The scheduled tournaments as the lobby shows them (RULES.md 9), bounded
    (scheduled_listed), cached a moment as rooms_page is."""
    return _list_page("tournaments", scheduled_listed, not_before)

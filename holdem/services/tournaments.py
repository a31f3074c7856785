"""Sit & Go tournaments (RULES.md 8): one always open per active template, registration with its
two ledger lines, the start (seats drawn, a table made, the next one opened), the level clock,
and the places and prizes decided as hands end.

Lock order (style.md 8): the table row, then the tournament row, then wallets. Registration has
no table yet: the tournament row, then the wallet.
"""

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from casino.accounts.limits import buy_in_limit_refusal
from casino.accounts.models import LedgerKind, User
from casino.accounts.selectors import frozen_refusal
from casino.accounts.services import wallet_adjust, wallet_lock
from casino.errors import DomainError
from holdem.db import rows
from holdem.db.locks import LockedTable
from holdem.engine.cards import shuffle
from holdem.engine.names import FIXED_LIMIT
from holdem.engine.tournament import places_for_busts
from holdem.models import (
    Disconnect,
    Entry,
    HandRecord,
    Seat,
    SitGoTemplate,
    Table,
    TableKind,
    TableStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)
from holdem.presets import SIT_AND_GO_PRESETS
from holdem.realtime.broadcast import (
    LOBBY_GROUP,
    frame_message,
    send_on_commit,
    user_socket_group,
)
from holdem.selectors.multi_table import mtt_summary
from holdem.selectors.tournaments import (
    entry_open_of,
    level_of,
    prize_table,
    sit_and_go_summary,
)
from holdem.services.shuffle import RandomSourceFailed, random_source
from holdem.table_options import time_bank_ms_of

# RULES.md 8: the first hand is dealt 10 s after the last seat is taken.
FIRST_HAND_SECONDS = 10
# Between two hands of a tournament (the cash game's 30/10 s would eat the levels): long enough
# to see the result, short enough for the clock (docs/decisions.md).
BETWEEN_HANDS_SECONDS = 4

# The template's figures a tournament copies when it opens.
_COPIED = (
    "seats",
    "structure",
    "buy_in",
    "fee",
    "starting_stack",
    "level_seconds",
    "turn_seconds",
    "time_bank_seconds",
    "auto_muck",
)


def tournament_label(tournament: Tournament) -> str:
    """How the ledger's lines and the tables name a tournament: "Daily Hold'em #12"."""
    return f"{tournament.name} #{tournament.pk}"


def ordinal(place: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def sit_and_go_open(template: SitGoTemplate) -> Tournament:
    """A new Sit & Go of `template`, taking entries, announced to the lobby."""
    tournament = Tournament.objects.create(
        template=template,
        name=template.name,
        blind_schedule=list(template.blind_schedule),
        payouts=list(template.payouts),
        **{name: getattr(template, name) for name in _COPIED},
    )
    lobby_announce(tournament)
    return tournament


def sit_and_gos_keep_open() -> int:
    """RULES.md 8: every active template has one Sit & Go taking entries; open those missing.
    Returns how many were opened. One query when none is missing (the clock asks every second)."""
    taking_entries = Tournament.objects.filter(
        template=OuterRef("pk"), status=TournamentStatus.REGISTERING
    )
    missing = SitGoTemplate.objects.filter(active=True).exclude(Exists(taking_entries))
    opened = 0
    for template_id in list(missing.values_list("pk", flat=True)):
        with transaction.atomic():
            # Under the template's lock, so that two clocks do not both open one.
            template = SitGoTemplate.objects.select_for_update().get(pk=template_id)
            if not Tournament.objects.filter(
                template=template, status=TournamentStatus.REGISTERING
            ).exists():
                sit_and_go_open(template)
                opened += 1
    return opened


def sit_and_go_presets_seed() -> int:
    """One template per shipped preset (RULES.md 8), created once, each with one Sit & Go open.
    Returns the number of active templates."""
    for key, preset in SIT_AND_GO_PRESETS.items():
        if not SitGoTemplate.objects.filter(preset=key).exists():
            SitGoTemplate.objects.create(preset=key, **preset)
    sit_and_gos_keep_open()
    return SitGoTemplate.objects.filter(active=True).count()


def tournament_locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).first()
    if tournament is None:
        raise DomainError("no_such_tournament", "that tournament does not exist")
    return tournament


def entry_charge(
    tournament: Tournament,
    user: User,
    *,
    again: bool = False,
    refusal: DomainError | None = None,
) -> None:
    """RULES.md 8 and 9: whether `user` may enter `tournament` now, and if so the buy-in and the
    fee out of the wallet as two ledger lines (`again`: a re-entry). One tournament at a time,
    not while seated in a room, not frozen, with the chips; `refusal`: why the tournament takes
    no entry from them (it is full...), said after the player's own refusals. The caller holds
    the tournament row; this takes the wallet, which serialises one player entering twice or
    sitting down somewhere meanwhile (table_sit checks entries under the same lock)."""
    wallet = wallet_lock(user_ids=[user.pk])[user.pk]
    # Under the wallet lock, which a freeze and a break take too (docs/rules.md 11).
    frozen = frozen_refusal(user=user)
    if frozen is not None:
        raise frozen
    mine = entry_open_of(user)
    if mine is not None:
        if mine.tournament_id == tournament.pk:
            raise DomainError("already_registered", "you are already in this tournament")
        raise DomainError(
            "registered_elsewhere",
            f"you are already in {mine.tournament.name} (#{mine.tournament_id}); "
            "one tournament at a time",
        )
    if Seat.objects.filter(user=user).exists():
        raise DomainError("seated_elsewhere", "you sit at a table; leave it before you register")
    if refusal is not None:
        raise refusal
    cost = tournament.buy_in + tournament.fee
    if wallet.balance < cost:
        raise DomainError(
            "insufficient_chips",
            f"the buy-in and fee are {cost:,} chips; you have {wallet.balance:,}",
        )
    limited = buy_in_limit_refusal(user=user, amount=cost)  # docs/rules.md 11
    if limited is not None:
        raise limited
    label = tournament_label(tournament)
    which = " (re-entry)" if again else ""
    wallet_adjust(
        user=user,
        amount=-tournament.buy_in,
        kind=LedgerKind.TOURNAMENT_BUY_IN,
        reason=f"Buy-in{which}: {label}",
    )
    if tournament.fee:
        wallet_adjust(
            user=user,
            amount=-tournament.fee,
            kind=LedgerKind.TOURNAMENT_FEE,
            reason=f"Fee{which}: {label}",
        )


def tournament_table_create(
    tournament: Tournament, *, kind: str, name: str, next_hand_at: datetime | None = None
) -> Table:
    """A table of `tournament` at the level in force: the tournament's structure and clocks,
    tournament chips only (no buy-in), the dead button's entry, no all-in protection (RULES.md
    8), and the short countdown between hands."""
    level = level_of(tournament, tournament.level)
    fixed_limit = tournament.structure == FIXED_LIMIT
    return Table.objects.create(
        name=name,
        kind=kind,
        tournament=tournament,
        seats=tournament.seats,
        structure=tournament.structure,
        blinds="fixed",
        small_blind=level["small_blind"],
        big_blind=level["big_blind"],
        **(
            {"small_bet": level["big_blind"], "big_bet": 2 * level["big_blind"], "raise_cap": 3}
            if fixed_limit
            else {"raise_cap": None}
        ),
        min_buy_in=0,
        max_buy_in=None,
        entry=Entry.NEXT_HAND,
        disconnect=Disconnect.CHECK_FOLD,  # no all-in protection in tournaments (RULES.md 8)
        turn_seconds=tournament.turn_seconds,
        time_bank_seconds=tournament.time_bank_seconds,
        countdown_seconds=BETWEEN_HANDS_SECONDS,
        countdown_full_seconds=BETWEEN_HANDS_SECONDS,
        auto_muck=tournament.auto_muck,
        next_hand_at=next_hand_at,
    )


def tournament_running(
    tournament: Tournament, *, entrants: int, now: datetime, first_hand_at: datetime
) -> None:
    """The tournament starts with `entrants` (RULES.md 8 and 9): its pool, and the first level,
    which starts with the first hand. Saved with whatever else the caller set on it."""
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = now
    tournament.entrants = entrants
    tournament.prize_pool = tournament.buy_in * entrants
    tournament.level = 0
    tournament.level_ends_at = first_hand_at + timedelta(seconds=tournament.level_seconds)
    tournament.save()


def starting_seat(
    tournament: Tournament, table: Table, number: int, user: User, **more: bool
) -> Seat:
    """An unsaved seat for a player entering with the starting stack and a full time bank."""
    return Seat(
        table=table,
        number=number,
        user=user,
        stack=tournament.starting_stack,
        auto_muck=user.auto_muck,
        time_bank_ms=time_bank_ms_of(table),
        **more,
    )


def tournament_register(*, tournament_id: int, user: User) -> Tournament:
    """RULES.md 8: register in a Sit & Go: the buy-in and the fee leave the wallet as two ledger
    lines. One tournament at a time, and not while seated in a room. The last seat taken starts
    it, in the same transaction."""
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if tournament.kind != TournamentKind.SIT_AND_GO:
            raise DomainError("not_sit_and_go", "this tournament is not a Sit & Go")
        if tournament.status != TournamentStatus.REGISTERING:
            raise DomainError("tournament_started", "this Sit & Go is no longer taking entries")
        taken = tournament.entries.count()
        full = DomainError("tournament_full", "every seat of this Sit & Go is taken")
        entry_charge(tournament, user, refusal=full if taken >= tournament.seats else None)
        now = timezone.now()
        TournamentEntry.objects.create(tournament=tournament, user=user, registered_at=now)
        if taken + 1 == tournament.seats:
            _tournament_start(tournament, now)
        else:
            lobby_announce(tournament)
    return tournament


def tournament_unregister(*, tournament_id: int, user: User) -> Tournament:
    """RULES.md 8 and 9: before the start, the buy-in and the fee come back (two ledger lines)."""
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if entry is None:
            raise DomainError(
                "not_registered", f"you are not registered in this {_kind(tournament)}"
            )
        if tournament.status != TournamentStatus.REGISTERING:
            raise DomainError(
                "tournament_started",
                f"this {_kind(tournament)} has started: registrations are final",
            )
        wallet_lock(user_ids=[user.pk])
        refund(tournament, entry, why="Unregistered")
        entry.delete()
        lobby_announce(tournament)
    return tournament


def tournament_cancel(*, tournament_id: int, actor: User) -> Tournament:
    """Staff cancel a tournament (a Sit & Go or a scheduled one) before it starts: every
    registration is refunded. One that has started cannot be cancelled (its chips are in play)."""
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if tournament.status != TournamentStatus.REGISTERING:
            raise DomainError(
                "tournament_started",
                f"only a {_kind(tournament)} that has not started can be cancelled",
            )
        entries = list(tournament.entries.select_related("user"))
        wallet_lock(user_ids=[e.user_id for e in entries])
        for entry in entries:
            refund(tournament, entry, why=f"Cancelled by {actor.get_username()}")
        tournament.entries.all().delete()
        tournament.status = TournamentStatus.CANCELLED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        lobby_announce(tournament)
        if tournament.repeat_daily:
            tournament_next_day(tournament)
    sit_and_gos_keep_open()
    return tournament


def tournament_next_day(tournament: Tournament) -> None:
    """A daily tournament's next one, a day later, taking entries (once, whichever way this
    one ended before it played: started, cancelled for want of entrants, or by staff)."""
    assert tournament.starts_at is not None
    starts_at = tournament.starts_at + timedelta(days=1)
    copies = Tournament.objects.filter(
        kind=TournamentKind.SCHEDULED, name=tournament.name, starts_at=starts_at
    )
    if copies.exists():
        return
    copy = Tournament.objects.get(pk=tournament.pk)
    copy.pk = None
    copy.status = TournamentStatus.REGISTERING
    copy.starts_at = starts_at
    for name, value in (
        ("level", 0),
        ("level_ends_at", None),
        ("entrants", 0),
        ("prize_pool", 0),
        ("prizes_paid", 0),
        ("hand_for_hand", False),
        ("hand_round", 0),
        ("started_at", None),
        ("finished_at", None),
    ):
        setattr(copy, name, value)
    copy.save()
    lobby_announce(copy)


def _kind(tournament: Tournament) -> str:
    """What the players call it in a refusal: "Sit & Go" or "tournament"."""
    return "Sit & Go" if tournament.kind == TournamentKind.SIT_AND_GO else "tournament"


def refund(tournament: Tournament, entry: TournamentEntry, *, why: str) -> None:
    label = tournament_label(tournament)
    for amount, part in ((tournament.buy_in, "buy-in"), (tournament.fee, "fee")):
        if amount:
            wallet_adjust(
                user=entry.user,
                amount=amount,
                kind=LedgerKind.TOURNAMENT_REFUND,
                reason=f"{why}: {part} of {label} returned",
            )


def _tournament_start(tournament: Tournament, now: datetime) -> None:
    """RULES.md 8: the last seat is taken: seats drawn at random (the button is drawn with the
    first hand), the table made with the starting stacks, the first hand 10 s away, the players
    told wherever they are, and a fresh Sit & Go of the template opened."""
    entries = list(tournament.entries.select_related("user").order_by("registered_at", "id"))
    try:
        numbers = shuffle(range(tournament.seats), random_source())[: len(entries)]
    except RandomSourceFailed:
        # docs/fairness.md: no draw from anything else; the seat taken last is refused.
        raise DomainError(
            "shuffle_unavailable",
            "the dealer cannot draw the seats right now (the random source failed); "
            "try again in a moment",
        ) from None
    first_hand_at = now + timedelta(seconds=FIRST_HAND_SECONDS)
    table = tournament_table_create(
        tournament,
        kind=TableKind.SIT_AND_GO,
        name=tournament_label(tournament),
        next_hand_at=first_hand_at,
    )
    Seat.objects.bulk_create(
        starting_seat(tournament, table, number, entry.user)
        for entry, number in zip(entries, numbers)
    )
    for entry, number in zip(entries, numbers):
        entry.seat = number
    rows.save_many(entries, ["seat"])
    tournament_running(tournament, entrants=len(entries), now=now, first_hand_at=first_hand_at)
    started = {
        "type": "tournament_started",
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "table_id": table.pk,
            "table_url": f"/tables/{table.pk}/",
        },
    }
    send_on_commit([(user_socket_group(e.user_id), frame_message(started)) for e in entries])
    lobby_announce(tournament)
    # RULES.md 8: there is always one taking entries.
    template = tournament.template
    if template is not None and template.active:
        sit_and_go_open(template)


def tournament_hand_ended(
    table: LockedTable, *, record: HandRecord, seats: Sequence[Seat], now: datetime
) -> None:
    """RULES.md 8: the players left with no chips are out, placed and paid at once; the last
    one with chips wins what is left of the pool, and the tournament is over (the table closes
    as the hand's end stands the winner up). The caller holds the table lock."""
    assert table.tournament_id is not None  # a tournament's table
    tournament = tournament_locked(table.tournament_id)
    if tournament.status != TournamentStatus.RUNNING:
        return
    before = {p["seat"]: p["stack_before"] for p in record.players}
    out = [s for s in seats if s.stack == 0 and s.number in before]
    if not out:
        return
    entries = {e.user_id: e for e in tournament.entries.filter(place__isnull=True)}
    placed = tournament.entries.filter(place__isnull=False).count()
    paid = prize_table(tournament)
    # Clockwise from the first seat left of the button (the odd chip of a shared prize).
    dealt = sorted(before)
    order = [n for n in dealt if n > record.button_seat] + [
        n for n in dealt if n <= record.button_seat
    ]
    by_seat = {s.number: s for s in seats}
    decided = places_for_busts(
        [(s.number, before[s.number]) for s in out],
        tournament.entrants - placed,
        [paid[i] if i < len(paid) else 0 for i in range(tournament.entrants)],
        order,
    )
    for number, place, prize in decided:
        _place(tournament, entries[by_seat[number].user_id], place, prize, record, now)
    alive = [s for s in seats if s.stack > 0]
    if len(alive) == 1:
        # The winner takes what is left of the pool: first place and its odd chips.
        winner = entries[alive[0].user_id]
        _place(tournament, winner, 1, tournament.prize_pool - tournament.prizes_paid, record, now)
        tournament.status = TournamentStatus.FINISHED
        tournament.finished_at = now
        tournament.level_ends_at = None
        table.status = TableStatus.CLOSING  # the end of the hand stands the winner up
        table.next_hand_at = None
        rows.save_fields(table, ["status", "next_hand_at"])
    tournament.save(update_fields=["prizes_paid", "status", "finished_at", "level_ends_at"])
    lobby_announce(tournament)


def _place(
    tournament: Tournament,
    entry: TournamentEntry,
    place: int,
    prize: int,
    record: HandRecord,
    now: datetime,
) -> None:
    entry.place, entry.prize, entry.finished_at, entry.out_in_hand = place, prize, now, record
    entry.save(update_fields=["place", "prize", "finished_at", "out_in_hand"])
    if prize:
        wallet_adjust(
            user=entry.user,
            amount=prize,
            kind=LedgerKind.TOURNAMENT_PRIZE,
            reason=f"{ordinal(place)} place in {tournament_label(tournament)}",
            table_id=record.table_id,
        )
        tournament.prizes_paid += prize


def tournament_levels_extend(*, silent_since: datetime, now: datetime) -> int:
    """RULES.md 8: a restart does not eat a level. The levels in progress when the clock fell
    silent (at `silent_since`) are extended by the silence; the caller records the clock's run in
    the same transaction, so one silence extends them once. Returns how many."""
    return Tournament.objects.filter(
        status=TournamentStatus.RUNNING, level_ends_at__gt=silent_since
    ).update(level_ends_at=F("level_ends_at") + (now - silent_since))


def lobby_announce(tournament: Tournament) -> None:
    """After commit, the tournament as the lobby lists it (docs/protocol.md, `sit_and_go` and
    `tournament`)."""
    if tournament.kind == TournamentKind.SCHEDULED:
        frame = {"type": "tournament", "tournament": mtt_summary(tournament)}
    else:
        frame = {"type": "sit_and_go", "sit_and_go": sit_and_go_summary(tournament)}
    send_on_commit([(LOBBY_GROUP, frame_message(frame))])

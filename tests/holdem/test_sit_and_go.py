"""Sit & Go tournaments through the services (RULES.md 8): registration and its ledger lines,
the start, tournament chips, levels on the clock, places and prizes, absent players, the audit."""

import random
from datetime import timedelta

import pytest

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.errors import DomainError
from holdem.engine.cards import new_deck
from holdem.history.pokerstars import pokerstars_text
from holdem.models import (
    HandRecord,
    Seat,
    SitGoTemplate,
    TableKind,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from holdem.selectors.lobby import rooms_for_lobby
from holdem.services import clock as clock_service
from holdem.services import (
    game_kinds,
    hand_start,
    table_leave,
    table_sit,
    table_sit_out,
    table_top_up,
)
from holdem.services import tournaments as tournament_service
from holdem.services.clock import deadlines_fire_due
from holdem.services.tournaments import (
    sit_and_go_open,
    sit_and_gos_keep_open,
    tournament_cancel,
    tournament_register,
    tournament_unregister,
)
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def sit_and_go(db):
    """A Sit & Go open for registration, from a template of its own."""

    def make(seats=2, buy_in=1_000, fee=100, starting_stack=500, level_seconds=180, **more):
        more.setdefault("time_bank_seconds", 0)
        template = SitGoTemplate.objects.create(
            name=f"Test Sit & Go {SitGoTemplate.objects.count() + 1}",
            seats=seats,
            buy_in=buy_in,
            fee=fee,
            starting_stack=starting_stack,
            level_seconds=level_seconds,
            **more,
        )
        return sit_and_go_open(template)

    return make


def register_all(tournament, players):
    for player in players:
        tournament_register(tournament_id=tournament.pk, user=player)
    tournament.refresh_from_db()
    return tournament


def test_registering_takes_the_buy_in_and_the_fee_as_two_ledger_lines(sit_and_go, make_player):
    """RULES.md 8: the buy-in and the fee leave the wallet as two separate ledger lines."""
    tournament = sit_and_go(seats=3)
    player = make_player()
    before = wallet_balance(user=player)
    tournament_register(tournament_id=tournament.pk, user=player)
    lines = LedgerEntry.objects.filter(user=player).order_by("-id")[:2]
    assert [(e.kind, e.amount) for e in reversed(lines)] == [
        (LedgerKind.TOURNAMENT_BUY_IN, -1_000),
        (LedgerKind.TOURNAMENT_FEE, -100),
    ]
    assert wallet_balance(user=player) == before - 1_100
    audit = chips_everywhere()
    assert audit.in_tournaments == 1_100


def test_unregistering_before_the_start_gives_both_back(sit_and_go, make_player):
    """RULES.md 8: both come back if the player unregisters before the start."""
    tournament = sit_and_go(seats=3)
    player = make_player()
    before = wallet_balance(user=player)
    tournament_register(tournament_id=tournament.pk, user=player)
    tournament_unregister(tournament_id=tournament.pk, user=player)
    assert wallet_balance(user=player) == before
    refunds = LedgerEntry.objects.filter(user=player, kind=LedgerKind.TOURNAMENT_REFUND)
    assert sorted(refunds.values_list("amount", flat=True)) == [100, 1_000]
    assert not tournament.entries.exists()
    assert chips_everywhere().in_tournaments == 0


def test_refused_registrations_change_nothing(sit_and_go, make_player, seated):
    """RULES.md 8: one Sit & Go at a time, not while seated in a room, with the chips for it;
    each refusal has a clear code and leaves wallet and entries as they were."""
    first, second = sit_and_go(seats=3), sit_and_go(seats=3)
    player = make_player()
    tournament_register(tournament_id=first.pk, user=player)
    balance = wallet_balance(user=player)
    _, users = seated(seats=(0,))
    poor = make_player()
    cases = [
        (first, player, "already_registered"),
        (second, player, "registered_elsewhere"),
        (second, users[0], "seated_elsewhere"),
    ]
    for tournament, user, code in cases:
        entries = tournament.entries.count()
        before = wallet_balance(user=user)
        with pytest.raises(DomainError) as refused:
            tournament_register(tournament_id=tournament.pk, user=user)
        assert refused.value.code == code
        assert tournament.entries.count() == entries
        assert wallet_balance(user=user) == before
    with pytest.raises(DomainError) as refused:
        tournament_register(tournament_id=999_999, user=player)
    assert refused.value.code == "no_such_tournament"
    rich_only = sit_and_go(seats=3, buy_in=10_000_000)
    with pytest.raises(DomainError) as refused:
        tournament_register(tournament_id=rich_only.pk, user=poor)
    assert refused.value.code == "insufficient_chips"
    assert not rich_only.entries.exists()
    with pytest.raises(DomainError) as refused:
        tournament_unregister(tournament_id=second.pk, user=player)
    assert refused.value.code == "not_registered"
    assert wallet_balance(user=player) == balance
    chips_everywhere()


def test_a_registered_player_cannot_sit_down_in_a_room(sit_and_go, make_player, room):
    """RULES.md 8: registration counts as the one room a player is in (RULES.md 2)."""
    tournament = sit_and_go(seats=3)
    player = make_player()
    tournament_register(tournament_id=tournament.pk, user=player)
    table = room("nl50")
    with pytest.raises(DomainError) as refused:
        table_sit(table_id=table.pk, user=player, seat=0, buy_in=2_000)
    assert refused.value.code == "registered_elsewhere"
    assert not Seat.objects.filter(user=player).exists()


def test_the_last_seat_starts_it_and_a_fresh_one_opens(sit_and_go, make_player, clock):
    """RULES.md 8: once the last seat is taken, the seats are drawn, the starting stacks dealt,
    the first hand comes 10 s later, and a new Sit & Go of the same template takes entries."""
    tournament = sit_and_go(seats=3)
    players = [make_player() for _ in range(3)]
    register_all(tournament, players)
    assert tournament.status == TournamentStatus.RUNNING
    assert tournament.entrants == 3 and tournament.prize_pool == 3_000
    table = tournament.table
    assert table.kind == TableKind.SIT_AND_GO and table.seats == 3
    seats = list(table.seat_set.all())
    assert sorted(s.user_id for s in seats) == sorted(p.pk for p in players)
    assert all(s.stack == 500 for s in seats)
    assert table.next_hand_at == clock.now + timedelta(seconds=10)
    fresh = Tournament.objects.get(template=tournament.template, status="registering")
    assert fresh.pk != tournament.pk and not fresh.entries.exists()
    # The lobby never lists a tournament table among the cash rooms.

    assert table.pk not in [room["id"] for room in rooms_for_lobby()]
    clock.advance(10)
    assert current(table) is not None
    chips_everywhere()


def test_tournament_chips_stay_in_the_tournament(sit_and_go, make_player, clock):
    """RULES.md 8: no top-up, no leaving with the chips, no sitting down at its table, no
    unregistering once it started; sitting out is allowed."""
    tournament = sit_and_go(seats=2)
    players = [make_player() for _ in range(2)]
    register_all(tournament, players)
    table = tournament.table
    outsider = make_player()
    refusals = [
        (lambda: table_top_up(table_id=table.pk, user=players[0], amount=100), "no_top_up"),
        (lambda: table_leave(table_id=table.pk, user=players[0]), "in_tournament"),
        (
            lambda: table_sit(table_id=table.pk, user=outsider, seat=0, buy_in=100),
            "tournament_table",
        ),
        (
            lambda: tournament_unregister(tournament_id=tournament.pk, user=players[0]),
            "tournament_started",
        ),
    ]
    for attempt, code in refusals:
        balance = wallet_balance(user=players[0])
        with pytest.raises(DomainError) as refused:
            attempt()
        assert refused.value.code == code
        assert wallet_balance(user=players[0]) == balance
        assert Seat.objects.get(user=players[0]).stack == 500
    table_sit_out(table_id=table.pk, user=players[0])
    chips_everywhere()


def play_to_the_end(tournament, clock, seed=3, hands=400):
    """Play every hand with random legal actions, the clock moving between hands; returns the
    number of hands played. The audit holds after every hand."""
    rng = random.Random(seed)
    table = tournament.table
    users = {e.seat: e.user for e in tournament.entries.all()}
    played = 0
    while True:
        tournament.refresh_from_db()
        if tournament.status == TournamentStatus.FINISHED:
            return played
        assert played < hands, "the tournament should have ended"
        clock.advance(11)
        if current(table) is not None:
            play_out(table, users, rng=rng)
            played += 1
            chips_everywhere()


def test_a_sit_and_go_is_played_to_a_winner_who_is_paid_the_pool(sit_and_go, make_player, clock):
    """RULES.md 8: players out take places counting down, prizes are paid through the ledger
    as places are settled, the winner takes the rest of the pool; the table closes."""
    tournament = sit_and_go(seats=4, starting_stack=300, level_seconds=60)
    players = [make_player() for _ in range(4)]
    before = {p.pk: wallet_balance(user=p) for p in players}
    register_all(tournament, players)
    hands = play_to_the_end(tournament, clock)
    assert hands >= 1
    tournament.refresh_from_db()
    entries = list(tournament.entries.order_by("place"))
    places = [e.place for e in entries]
    # Places count down from 4; players out in one hand with the same chips share a place.
    assert places[0] == 1 and places.count(1) == 1 and all(p is not None for p in places)
    # RULES.md 8: 65/35 of a 4,000 pool for 4 entrants (second place shared if tied).
    second = [e.prize for e in entries if e.place == 2]
    assert entries[0].prize == 2_600 and sum(second) == (1_400 if second else 0)
    assert sum(e.prize for e in entries) == tournament.prizes_paid == tournament.prize_pool
    assert tournament.prize_pool == 4_000
    for entry in entries:
        expected = before[entry.user_id] - 1_100 + entry.prize
        assert wallet_balance(user=entry.user) == expected
    prizes = LedgerEntry.objects.filter(kind=LedgerKind.TOURNAMENT_PRIZE)
    assert sorted(prizes.values_list("amount", flat=True)) == sorted(
        e.prize for e in entries if e.prize
    )
    table = tournament.table
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED and not table.seat_set.exists()
    record = HandRecord.objects.filter(table=table).order_by("number").last()
    assert record.tournament["id"] == tournament.pk
    audit = chips_everywhere()
    assert audit.in_tournaments == 4 * 100  # the fees stay with the house


def test_levels_move_on_the_clock_and_apply_from_the_next_hand(sit_and_go, make_player, clock):
    """RULES.md 8: the level moves on the server's clock and its blinds apply from the next
    hand dealt; the table's stakes show the level in force."""
    tournament = sit_and_go(seats=2, starting_stack=5_000, level_seconds=60)
    players = [make_player() for _ in range(2)]
    register_all(tournament, players)
    table = tournament.table
    clock.advance(10)
    first = HandRecord.objects.get(table=table, number=1)
    assert (first.options["small_blind"], first.options["big_blind"]) == (10, 20)
    assert first.tournament["level"] == 1
    fired = clock.advance(61)  # the first level's minute is up (the hand in play goes on)
    assert fired.get("levels") == 1
    tournament.refresh_from_db()
    table.refresh_from_db()
    assert tournament.level == 1 and (table.small_blind, table.big_blind) == (15, 30)
    if current(table) is not None:
        assert current(table).options.big_blind == 20  # the hand in play keeps its blinds
        play_out(table, {e.seat: e.user for e in tournament.entries.all()})
    clock.advance(5)
    latest = HandRecord.objects.filter(table=table).order_by("number").last()
    assert latest.number >= 2
    assert (latest.options["small_blind"], latest.options["big_blind"]) == (15, 30)
    assert latest.tournament["level"] == 2


def test_downtime_does_not_eat_a_level(sit_and_go, make_player, clock):
    """RULES.md 8: after the clock was silent (the site down), the level in progress is
    extended by the downtime, as turns are renewed (RULES.md 5)."""

    tournament = sit_and_go(seats=2, starting_stack=5_000, level_seconds=60)
    register_all(tournament, [make_player(), make_player()])
    clock.advance(20)  # 10 s into the first level
    tournament.refresh_from_db()
    ends = tournament.level_ends_at
    # The clock falls silent for 100 s: its next run finds the gap in its own record.
    clock.now += timedelta(seconds=100)
    fired = deadlines_fire_due(clock.now)
    assert not fired.get("levels")
    tournament.refresh_from_db()
    assert tournament.level == 0
    assert tournament.level_ends_at == ends + timedelta(seconds=100)


def test_absent_players_are_dealt_in_and_blinded_off(sit_and_go, make_player, clock):
    """RULES.md 8: a player sitting out is still dealt in, posts blinds, and their turns run
    out; nobody is removed for being away."""
    tournament = sit_and_go(seats=2, starting_stack=5_000, turn_seconds=5)
    away, here = make_player(), make_player()
    register_all(tournament, [away, here])
    table = tournament.table
    table_sit_out(table_id=table.pk, user=away)
    clock.advance(10)
    state = current(table)
    assert state is not None
    assert {p.seat for p in state.players} == set(tournament.entries.values_list("seat", flat=True))
    for _ in range(6):  # the absent player's turns time out; the hands go on
        clock.advance(6)
    assert Seat.objects.filter(user=away, table=table).exists()
    assert HandRecord.objects.filter(table=table).count() >= 2
    chips_everywhere()


def test_staff_cancel_before_the_start_refunds_everyone(sit_and_go, make_player, admin_client):
    """RULES.md 8 (admin): a Sit & Go can be cancelled only before it starts; the players get
    the buy-in and the fee back."""
    tournament = sit_and_go(seats=3)
    players = [make_player(), make_player()]
    before = {p.pk: wallet_balance(user=p) for p in players}
    register_all(tournament, players)
    staff = players[0].__class__.objects.filter(is_superuser=True).first()
    tournament_cancel(tournament_id=tournament.pk, actor=staff)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    for player in players:
        assert wallet_balance(user=player) == before[player.pk]
    assert sit_and_gos_keep_open() == 0  # the cancel opened the next one already
    started = sit_and_go(seats=2)
    register_all(started, [make_player(), make_player()])
    with pytest.raises(DomainError) as refused:
        tournament_cancel(tournament_id=started.pk, actor=staff)
    assert refused.value.code == "tournament_started"
    chips_everywhere()


def test_two_out_in_one_hand_with_the_same_chips_share_their_places(
    sit_and_go, make_player, clock, monkeypatch
):
    """RULES.md 8: two players out in the same hand who began it with the same chips share
    the prizes of the places they take (the odd chip to the first of them left of the button);
    every player dealt in posts the ante first; the remainder of the pool goes to first place."""

    monkeypatch.setattr(tournament_service, "random_source", lambda: random.Random(1))
    monkeypatch.setattr(
        game_kinds, "tournament_blinds", lambda previous, alive, rng: (alive[0], alive[1], alive[2])
    )
    tournament = sit_and_go(
        seats=3,
        buy_in=1_003,
        fee=0,
        starting_stack=500,
        blind_schedule=[[10, 20, 5]],
        payouts=[[10, [50, 30, 20]]],
    )
    players = [make_player() for _ in range(3)]
    before = {p.pk: wallet_balance(user=p) for p in players}
    register_all(tournament, players)
    alive = sorted(tournament.entries.values_list("seat", flat=True))
    button, small, big = alive
    # Dealt one at a time from the small blind: small, big, button, then again. The button
    # holds the aces; the board helps nobody else.
    holes = {small: ("7c", "2d"), big: ("8h", "3s"), button: ("Ah", "Ad")}
    order = [small, big, button]
    deck = [holes[s][0] for s in order] + [holes[s][1] for s in order]
    # A burn before each street; the board K Q 5 9 J makes nothing for the others.
    deck += ["2c", "Kd", "Qs", "5h", "3c", "9c", "4s", "Jd"]
    deck += [c for c in new_deck() if c not in deck]
    monkeypatch.setattr(hand_start, "hand_deck", lambda: list(deck))
    clock.advance(10)
    table = tournament.table
    record = HandRecord.objects.get(table=table)
    assert record.options["ante"] == 5
    users = {e.seat: e.user for e in tournament.entries.all()}
    play_out(table, users, choose=lambda legal: "all_in" if "all_in" in legal.actions else "call")
    tournament.refresh_from_db()
    entries = {e.seat: e for e in tournament.entries.all()}
    assert tournament.status == TournamentStatus.FINISHED
    # 3,009 in the pool: 50/30/20 are 1,504 + 902 + 601, the 2 left over to first place.
    assert (entries[button].place, entries[button].prize) == (1, 1_506)
    # Second and third shared: 902 + 601 = 1,503; the odd chip to the small blind (the first
    # of them left of the button).
    assert (entries[small].place, entries[small].prize) == (2, 752)
    assert (entries[big].place, entries[big].prize) == (2, 751)
    for entry in entries.values():
        assert wallet_balance(user=entry.user) == before[entry.user_id] - 1_003 + entry.prize
    text = pokerstars_text(HandRecord.objects.get(pk=record.pk))
    assert f"Tournament #{tournament.pk}, 1003+0 Hold'em No Limit - Level I (10/20)" in text
    assert text.count("posts the ante 5") == 3
    chips_everywhere()


def test_a_clock_run_that_fails_on_the_silence_leaves_it_to_the_next_run(
    sit_and_go, make_player, clock, monkeypatch
):
    """RULES.md 8: the silence is extended once, with the record of the clock's run: a run that
    fails before extending the levels records nothing, and the next run still finds the
    silence (it used to be recorded first, and the level was then eaten)."""

    tournament = sit_and_go(seats=2, starting_stack=5_000, level_seconds=60)
    register_all(tournament, [make_player(), make_player()])
    clock.advance(20)
    tournament.refresh_from_db()
    ends = tournament.level_ends_at
    clock.now += timedelta(seconds=100)

    def broken(**_):
        raise RuntimeError("the database went away")

    with monkeypatch.context() as patch:
        patch.setattr(clock_service, "tournament_levels_extend", broken)
        with pytest.raises(RuntimeError):
            clock_service.deadlines_fire_due(clock.now)
    clock.now += timedelta(seconds=1)
    clock_service.deadlines_fire_due(clock.now)
    tournament.refresh_from_db()
    assert tournament.level == 0
    assert tournament.level_ends_at == ends + timedelta(seconds=101)

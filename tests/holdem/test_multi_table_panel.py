"""What every table of a multi-table tournament shows (RULES.md 9): the players left, the
average stack, each seat's rank by chips among all the players, the level and its clock, what
the next place pays, the places paid and hand for hand; read with the hands and levels, never
on an action (holdem/services/notify.py, PANEL_KINDS)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from holdem import engine
from holdem.models import HandRecord, Seat, Table, TournamentStatus
from holdem.realtime.delta import decode
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.multi_table import mtt_prize_table, mtt_table_panel
from holdem.selectors.snapshot import table_snapshot
from holdem.services import table_act
from holdem.services.multi_table import mtt_register
from tests.holdem.conftest import chips_everywhere
from tests.holdem.test_multi_table import (
    check_invariants,
    one_player_out,
    open_tables,
    play_to_the_end,
    register,
)
from tests.holdem.test_query_budget import MID_HAND_ACT, statements

pytestmark = pytest.mark.django_db


def started(scheduled, make_player, clock, players, **options):
    """A scheduled tournament of `players` entrants, started by the clock."""
    options.setdefault("late_registration_levels", 0)
    tournament = register(scheduled(**options), [make_player() for _ in range(players)])
    clock.advance(61)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    return tournament


def play_hand(table, choose):
    """Play the hand in progress at `table` to its end, each action `choose(legal)`."""
    while table.refresh_from_db() or table.in_hand:
        legal = engine.legal_actions(engine.state_from_json(table.hand_state))
        user = Seat.objects.get(table=table, number=legal.seat).user
        table_act(table_id=table.pk, user=user, action=choose(legal))


def chips_of_everyone(tournament):
    """user id -> the chips the ranking counts: the stack between hands, and for a player dealt
    into the hand their table is playing, what they began it with."""
    chips = {}
    for seat in Seat.objects.filter(table__tournament=tournament).select_related("table"):
        chips[seat.user_id] = seat.stack
        if seat.in_hand:
            record = HandRecord.objects.get(pk=seat.table.hand_id)
            before = next(p for p in record.players if p["user_id"] == seat.user_id)
            chips[seat.user_id] = before["stack_before"]
    return chips


def expected_ranks(tournament, table):
    """RULES.md 9: a seat's rank is one more than the players with more chips, whatever table
    they sit at (equal stacks share a rank); a seat without chips has none."""
    chips = chips_of_everyone(tournament)
    return {
        str(seat.number): 1 + sum(other > chips[seat.user_id] for other in chips.values())
        for seat in Seat.objects.filter(table=table)
        if chips[seat.user_id] > 0
    }


def test_every_table_shows_the_players_left_the_average_stack_and_each_seats_rank(
    scheduled,
    make_player,
    clock,
):
    """RULES.md 9: every table shows the players left, the average stack and your rank by chips
    (each seat's, among every player of the tournament), the level with its blinds and ante and
    the time it ends, and links the tournament's page."""
    tournament = started(scheduled, make_player, clock, 9, seats=4, starting_stack=1_000)
    one_player_out(tournament, clock)
    tournament.refresh_from_db()
    left = tournament.entries.filter(finished_at__isnull=True).count()
    assert 2 <= left < 9  # one hand all in at each table: a player out there, or more
    tables = [t for t in open_tables(tournament) if not t.in_hand and t.seat_set.exists()]
    assert tables
    for table in tables:
        panel = mtt_table_panel(tournament, table)
        assert panel["kind"] == "scheduled" and panel["status"] == "running"
        assert panel["url"] == f"/tournaments/{tournament.pk}/"
        assert panel["players_left"] == left and panel["entrants"] == 9
        # Between hands the average is the chips at the tables over the players left.
        assert panel["average_stack"] == 9_000 // left
        assert panel["ranks"] == expected_ranks(tournament, table)
        assert set(panel["ranks"]) == {str(s.number) for s in table.seat_set.filter(stack__gt=0)}
        assert panel["level"] == tournament.level + 1
        assert (panel["small_blind"], panel["big_blind"]) == (10, 20)
        assert panel["next_level"]["level"] == tournament.level + 2
        assert panel["level_ends_at"] == epoch_ms(tournament.level_ends_at)
    # The chip leader is first, at whichever table they sit.
    stacks = sorted(
        Seat.objects.filter(table__tournament=tournament).values_list("stack", flat=True)
    )
    leader = Seat.objects.filter(table__tournament=tournament, stack=stacks[-1]).first()
    assert mtt_table_panel(tournament, leader.table)["ranks"][str(leader.number)] == 1
    check_invariants(tournament)


def test_during_a_hand_a_player_ranks_by_the_chips_they_began_it_with(
    scheduled,
    make_player,
    clock,
):
    """RULES.md 9: mid-hand a player's chips are in the hand, not in the seat; the rank counts
    what each began the hand with, at their table and at the others, and the first all in of
    the hand changes nobody's rank."""
    tournament = started(scheduled, make_player, clock, 7, seats=4, starting_stack=1_000)
    clock.advance(10)  # the first hands: everyone folds to the big blind, who wins the blinds
    for table in open_tables(tournament):
        play_hand(table, lambda legal: "fold" if "fold" in legal.actions else "check")
    clock.advance(5)  # the second hands are dealt, the stacks no longer all equal
    playing = [t for t in open_tables(tournament) if t.in_hand]
    assert len(playing) == 2
    before = {t.pk: mtt_table_panel(tournament, t)["ranks"] for t in playing}
    for table in playing:
        assert before[table.pk] == expected_ranks(tournament, table)
        assert len(before[table.pk]) == table.seat_set.count()  # every seat has chips in play
    table = playing[0]
    legal = engine.legal_actions(engine.state_from_json(table.hand_state))
    user = Seat.objects.get(table=table, number=legal.seat).user
    table_act(table_id=table.pk, user=user, action="all_in")
    table.refresh_from_db()
    if table.in_hand:
        assert mtt_table_panel(tournament, table)["ranks"] == before[table.pk]
    check_invariants(tournament)


def test_the_next_place_pays_the_prize_of_the_place_the_next_player_out_takes(
    scheduled,
    make_player,
    clock,
):
    """RULES.md 9: with P players left the next one out takes place P: its prize while P is
    paid, nothing before the money; the places paid are the payout table's, and hand for hand
    shows once a single bust would leave every player left in the money."""
    tournament = started(scheduled, make_player, clock, 5, seats=3, starting_stack=600)
    prizes = mtt_prize_table(tournament)
    assert len(prizes) == 2  # RULES.md 9: never fewer than 2
    seen = set()
    for _ in range(10):
        tournament.refresh_from_db()
        if tournament.status != TournamentStatus.RUNNING:
            break
        left = tournament.entries.filter(finished_at__isnull=True).count()
        table = next(t for t in open_tables(tournament) if t.seat_set.exists())
        panel = mtt_table_panel(tournament, table)
        assert panel["players_left"] == left
        assert panel["places_paid"] == 2
        assert panel["prize_pool"] == 5_000
        if left <= 2:
            assert panel["next_prize"] == {"place": left, "prize": prizes[left - 1]}
        else:
            assert panel["next_prize"] is None
        assert panel["hand_for_hand"] == tournament.hand_for_hand
        if left == 3:
            assert panel["hand_for_hand"]  # one more bust and both left are paid
        seen.add(left)
        one_player_out(tournament, clock)
    # Before the money and in it (two tables may lose a player each in one round: 4 or 3 may be
    # skipped, 2 never is: a hand all in and called puts one player out at a time).
    assert {5, 2} <= seen
    check_invariants(tournament)


def test_a_finished_tournaments_table_shows_no_rank_and_no_next_prize(
    scheduled,
    make_player,
    clock,
):
    """RULES.md 9: once one player has every chip the table shows the tournament over: nobody
    left, no average, no rank, no next prize, and no level clock running."""
    tournament = started(
        scheduled, make_player, clock, 4, seats=3, starting_stack=300, level_seconds=30
    )
    play_to_the_end(tournament, clock)
    tournament.refresh_from_db()
    final = Table.objects.filter(tournament=tournament).order_by("-pk").first()
    panel = mtt_table_panel(tournament, final)
    assert panel["status"] == "finished"
    assert panel["players_left"] == 0 and panel["average_stack"] is None
    assert panel["ranks"] == {} and panel["next_prize"] is None
    assert panel["level_ends_at"] is None
    chips_everywhere()


def test_a_late_entrant_counts_at_once_in_the_players_the_average_and_the_ranks(
    scheduled,
    make_player,
    clock,
):
    """RULES.md 9: a late entrant brings the starting stack: the players left, the entrants and
    the pool grow, the average follows, and the seat they took has its rank straight away."""
    tournament = started(
        scheduled, make_player, clock, 5, seats=4, starting_stack=1_000, late_registration_levels=2
    )
    late = make_player()
    mtt_register(tournament_id=tournament.pk, user=late)
    tournament.refresh_from_db()
    seat = Seat.objects.get(user=late)
    panel = mtt_table_panel(tournament, seat.table)
    assert panel["players_left"] == panel["entrants"] == 6
    assert panel["prize_pool"] == 6_000 and panel["average_stack"] == 1_000
    assert panel["ranks"][str(seat.number)] == 1  # everybody still has the starting stack
    check_invariants(tournament)


def test_the_snapshot_carries_the_panel_and_an_action_neither_reads_nor_changes_it(
    scheduled,
    make_player,
    clock,
):
    """The panel travels in the table's public view. An action costs what it costs at a cash
    table (tests/holdem/test_query_budget.py) and reads nothing of the tournament: the panel is
    read again when a hand ends, and the event that ends it brings the new one."""
    tournament = started(scheduled, make_player, clock, 6, seats=3, starting_stack=1_000)
    clock.advance(10)  # the first hands are dealt
    table = next(t for t in open_tables(tournament) if t.in_hand)
    seated = Seat.objects.filter(table=table).select_related("user").first()
    snapshot = table_snapshot(table.pk, seated.user)
    assert snapshot["table"]["tournament"] == mtt_table_panel(tournament, table)
    held = decode(Table.objects.get(pk=table.pk).sent_view)["table"]["tournament"]
    hand_id = table.hand_id
    while True:
        table.refresh_from_db()
        if table.hand_id != hand_id or not table.in_hand:
            break
        legal = engine.legal_actions(engine.state_from_json(table.hand_state))
        user = Seat.objects.get(table=table, number=legal.seat).user
        action = "all_in" if "all_in" in legal.actions else "call"
        with CaptureQueriesContext(connection) as captured:
            table_act(table_id=table.pk, user=user, action=action, turn_token=table.turn_token)
        table.refresh_from_db()
        if table.hand_id == hand_id and table.in_hand:
            run = statements(captured)
            assert len(run) <= MID_HAND_ACT, "\n".join(run)
            assert not any("holdem_tournament" in sql for sql in run), "\n".join(run)
            sent = decode(table.sent_view)["table"]["tournament"]
            assert sent == held  # the clients' panel, carried as it was
    # The hand is over (all in and called): its end read the panel again.
    tournament.refresh_from_db()
    after = decode(table.sent_view)["table"]["tournament"]
    left = tournament.entries.filter(finished_at__isnull=True).count()
    assert after["players_left"] == left
    assert after["ranks"] == expected_ranks(tournament, table)
    check_invariants(tournament)

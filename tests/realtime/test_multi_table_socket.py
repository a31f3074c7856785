"""A multi-table tournament over the sockets (RULES.md 9): each table's snapshot carries the
tournament's panel; when a table breaks, its player's own socket (ws/me/) hears where they
now play, the table they left tells them with their own part and tells the others without it,
and the new table's snapshot shows them seated with their rank."""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone

from holdem import engine
from holdem.models import Seat, Table, TableStatus, TournamentStatus
from holdem.realtime.heartbeat import PROCESS_KEY
from holdem.selectors.audit import audit_chips
from holdem.services import deadlines_fire_due, table_act
from holdem.services.multi_table import (
    mtt_register,
    tournament_rebalance,
    tournament_schedule,
    tournaments_start_due,
)
from holdem.services.presence import process_beat
from tests.holdem.conftest import clock_ran_until
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def open_tables(tournament):
    return list(Table.objects.filter(tournament=tournament, status=TableStatus.OPEN))


def one_out_and_a_table_to_break(make_player):
    """Four entrants over two tables of three seats; hands all in and called until a player is
    out: their table is left with one player, who fits at the other table (RULES.md 9: it
    breaks). The clock's sweep has not moved them yet. Returns (tournament, breaking table,
    the player left there, the other table)."""
    tournament = tournament_schedule(
        name="Socket MTT",
        starts_at=timezone.now(),
        buy_in=100,
        seats=3,
        starting_stack=500,
        late_registration_levels=0,
        time_bank_seconds=0,
    )
    for _ in range(4):
        mtt_register(tournament_id=tournament.pk, user=make_player())
    tournaments_start_due(timezone.now())
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING and len(open_tables(tournament)) == 2
    at = timezone.now()
    for _ in range(30):
        # The clock deals what is due (and nothing moves: nobody is out yet).
        at += timedelta(seconds=15)
        clock_ran_until(at)
        process_beat(process_key=PROCESS_KEY, now=at)
        deadlines_fire_due(at)
        for table in open_tables(tournament):
            steps = 0
            while table.refresh_from_db() or table.in_hand:
                legal = engine.legal_actions(engine.state_from_json(table.hand_state))
                user = Seat.objects.get(table=table, number=legal.seat).user
                action = (
                    "all_in" if steps == 0 else ("call" if "call" in legal.actions else "check")
                )
                table_act(table_id=table.pk, user=user, action=action)
                steps += 1
        if tournament.entries.filter(finished_at__isnull=False).exists():
            break
    counts = {t.pk: t.seat_set.count() for t in open_tables(tournament)}
    assert sorted(counts.values()) in ([1, 2], [1, 1]), counts
    # RULES.md 9: the table with the fewest players breaks (the newest among equals).
    breaking = max(counts, key=lambda pk: (-counts[pk], pk))
    other = next(pk for pk in counts if pk != breaking)
    mover = Seat.objects.select_related("user").get(table_id=breaking).user
    return tournament, breaking, mover, other


def test_a_player_whose_table_breaks_hears_where_they_play_now(make_player):
    """RULES.md 9: the move is told to the player's own socket (their pages follow them) and to
    the table they left, with their own part (no seat any more) to them alone; the table's
    panel forgets their rank, and the new table shows them seated with it."""
    tournament, breaking, mover, other_table = one_out_and_a_table_to_break(make_player)
    watcher = Seat.objects.select_related("user").filter(table_id=other_table).first().user

    async def scenario():
        me = await open_socket("/ws/me/", user=mover, name="mover me")
        assert (await me.receive())["type"] == "wallet"
        old = await open_socket(f"/ws/table/{breaking}/", user=mover, name="mover's table")
        snapshot = await old.receive()
        panel = snapshot["table"]["tournament"]
        seat = snapshot["you"]["seat"]
        assert panel["kind"] == "scheduled" and panel["id"] == tournament.pk
        assert panel["url"] == f"/tournaments/{tournament.pk}/"
        assert str(seat) in panel["ranks"]
        left = panel["players_left"]
        looking = await open_socket(f"/ws/table/{breaking}/", user=watcher, name="watcher")
        assert (await looking.receive())["type"] == "snapshot"

        moved = await database_sync_to_async(tournament_rebalance)(tournament.pk)
        assert moved == 1
        target = await database_sync_to_async(lambda: Seat.objects.get(user=mover).table_id)()
        assert target == other_table

        told = await me.until(lambda f: f["type"] != "wallet")
        assert told == {
            "type": "tournament_moved",
            "tournament": {
                "id": tournament.pk,
                "name": "Socket MTT",
                "table_id": target,
                "table_url": f"/tables/{target}/",
            },
        }
        out = await old.until(lambda f: f["type"] == "event")
        assert out["event"]["kind"] == "moved_out"
        assert out["event"]["seat"] == seat and out["event"]["to_table"] == target
        assert out["event"]["username"] == mover.username
        assert out["you"]["seat"] is None  # their own part: no seat here any more
        assert str(seat) not in out["table"]["tournament"]["ranks"]
        seen = await looking.until(lambda f: f["type"] == "event")
        assert seen["event"] == out["event"] and "you" not in seen
        closed = await old.until(lambda f: f["type"] == "event")
        assert closed["event"]["kind"] == "closed"

        new = await open_socket(f"/ws/table/{target}/", user=mover, name="mover's new table")
        there = await new.until(lambda f: f["type"] == "snapshot")
        new_seat = there["you"]["seat"]
        assert isinstance(new_seat, int)
        assert there["table"]["tournament"]["players_left"] == left
        assert str(new_seat) in there["table"]["tournament"]["ranks"]
        # style.md 5: nobody's private part went to another's socket, and the user's own
        # socket carried only their wallet and where they play.
        for sock, owner in ((old, mover), (looking, watcher), (new, mover)):
            for frame in sock.frames:
                assert frame.get("you") is None or frame["you"]["user_id"] == owner.pk, frame
        assert {f["type"] for f in me.frames} == {"wallet", "tournament_moved"}
        for sock in (me, old, looking, new):
            await sock.close()

    async_to_sync(scenario)()
    audit = audit_chips()
    assert audit.ok, audit.summary()

"""The lobby socket a page at a time: a bounded first frame whatever the number of rooms, a filter
and a page chosen with `lobby_view` (every bad field refused, nothing changed), and the changes of
the rooms on that page coalesced by the process's relay into at most one `rooms` frame a second.

The relay's sends are driven here (`relay.flush()`), with its own clock stopped: no test sleeps.
"""

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone

from casino.settings import redis_channel_layer
from holdem.models import Table, Tournament, TournamentKind
from holdem.selectors.lobby_page import PAGE_SIZE
from holdem.services import room_close, table_leave, table_sit
from holdem.services.multi_table import mtt_register, tournament_schedule
from holdem.services.tournaments import tournament_register
from lobby import relay as relay_module
from lobby.relay import lobby_relay
from tests.frames import lobby_rooms
from tests.lobby.test_room_pages import bulk_rooms, open_sit_and_gos
from tests.realtime.conftest import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def relay_waits_for_the_test(monkeypatch):
    """The relay sends once as it starts, then not for an hour: the test calls flush(). A page
    that changed is read again at once (tests below set the wait between two reads)."""
    monkeypatch.setattr(relay_module, "FLUSH_SECONDS", 3600)
    monkeypatch.setattr(relay_module, "STALE_READ_SECONDS", 0)


async def heard(count):
    """Wait (up to 3 s) until the relay holds `count` rooms' changes not yet sent."""
    relay = lobby_relay()
    for _ in range(300):
        if len(relay.rooms) >= count:
            return relay.rooms
        await asyncio.sleep(0.01)
    raise AssertionError(f"the relay heard {len(relay.rooms)} changes, not {count}")


sit = database_sync_to_async(table_sit)
leave = database_sync_to_async(table_leave)


def test_the_first_frame_is_one_page_however_many_rooms(make_player):
    ids = bulk_rooms(PAGE_SIZE * 3 + 1)
    viewer = make_player("viewer")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        first = await lobby.receive()
        assert first["type"] == "lobby"
        assert [room["id"] for room in first["rooms"]] == ids[:PAGE_SIZE]
        assert (first["page"], first["pages"], first["page_size"]) == (1, 4, PAGE_SIZE)
        assert first["totals"] == {"matching": len(ids), "rooms": len(ids), "players": 0}
        # About 300 bytes a room, whatever the site's size (it was ~240 bytes for every room).
        assert len(json.dumps(first)) < PAGE_SIZE * 400 + 2_000
        await lobby.send({"type": "lobby_view", "page": 4})
        last = await lobby.receive()
        assert [room["id"] for room in last["rooms"]] == ids[3 * PAGE_SIZE :]
        assert last["view"]["page"] == 4 and last["page"] == 4
        await lobby.close()

    async_to_sync(scenario)()


def test_a_filter_chosen_on_the_socket_is_the_servers(make_player):
    nl = bulk_rooms(3, "nl50")
    pl = bulk_rooms(2, "pl50")
    viewer = make_player("viewer")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        await lobby.receive()
        await lobby.send({"type": "lobby_view", "structures": ["pot_limit"]})
        page = await lobby.receive()
        assert [room["id"] for room in page["rooms"]] == pl
        assert page["view"]["structures"] == ["pot_limit"]
        assert page["totals"] == {"matching": 2, "rooms": 5, "players": 0}
        # "snapshot" sends the same view again.
        await lobby.send({"type": "snapshot"})
        assert [room["id"] for room in (await lobby.receive())["rooms"]] == pl
        await lobby.send({"type": "lobby_view", "hide_empty": True})
        assert (await lobby.receive())["rooms"] == []
        await lobby.send({"type": "lobby_view"})  # every field left out: the default view
        assert [room["id"] for room in (await lobby.receive())["rooms"]] == nl + pl
        await lobby.close()

    async_to_sync(scenario)()


BAD_VIEWS = [
    ({"structures": "no_limit"}, "structures"),
    ({"structures": ["omaha"]}, "structures"),
    ({"structures": [1]}, "structures"),
    ({"stakes": 100}, "stakes"),
    ({"stakes": "cheap"}, "stakes"),
    ({"free": -1}, "free"),
    ({"free": 11}, "free"),
    ({"free": "2"}, "free"),
    ({"free": True}, "free"),
    ({"free": 1.5}, "free"),
    ({"hide_full": "yes"}, "hide_full"),
    ({"hide_empty": 1}, "hide_empty"),
    ({"kind": "poker"}, "kind"),
    ({"kind": None}, "kind"),
    ({"page": 0}, "page"),
    ({"page": "2"}, "page"),
    ({"page": 100_001}, "page"),
    ({"sort": "name"}, "sort"),
]


def test_every_bad_field_of_a_view_is_refused_and_changes_nothing(make_player):
    pl = bulk_rooms(2, "pl50")
    bulk_rooms(1, "nl50")
    viewer = make_player("viewer")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        await lobby.receive()
        await lobby.send({"type": "lobby_view", "structures": ["pot_limit"]})
        await lobby.receive()
        for view, field in BAD_VIEWS:
            await lobby.send({"type": "lobby_view", **view})
            error = await lobby.receive()
            assert error["type"] == "error" and error["code"] == "bad_view", (view, error)
            assert list(error["fields"]) == [field] and field in error["message"], (view, error)
        assert await lobby.drain() == []  # no page came with any of them
        # The view is the one chosen before them.
        await lobby.send({"type": "snapshot"})
        page = await lobby.receive()
        assert page["view"]["structures"] == ["pot_limit"]
        assert [room["id"] for room in page["rooms"]] == pl
        # Frames the lobby does not know get the error they always got.
        await lobby.send({"type": "sit", "seat": 1})
        assert (await lobby.receive())["code"] == "unknown_type"
        await lobby.send("not json")
        assert (await lobby.receive())["code"] == "unknown_type"
        await lobby.close()

    async_to_sync(scenario)()


def test_many_changes_within_a_second_are_one_frame_with_all_of_them(make_player):
    ids = bulk_rooms(12)
    players = [make_player() for _ in ids]
    viewer, second = make_player("viewer"), make_player("second")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        other = await open_socket("/ws/lobby/", user=players[0], name="another lobby")
        for sock in (lobby, other):
            await sock.receive()
        for table_id, user in zip(ids, players):
            await sit(table_id=table_id, user=user, seat=0, buy_in=2_000)
        # Two changes of one room: the room as the last one left it.
        await sit(table_id=ids[0], user=second, seat=1, buy_in=2_000)
        await heard(len(ids))
        await lobby_relay().flush()
        for sock in (lobby, other):
            frames = await sock.drain()
            assert [f["type"] for f in frames] == ["rooms"], frames
            changed = {room["id"]: room for room in frames[0]["rooms"]}
            assert sorted(changed) == ids
            assert changed[ids[0]]["taken"] == 2 and changed[ids[1]]["taken"] == 1
            assert changed[ids[1]]["players"] == [players[1].username]
        rooms = lobby_rooms(lobby.frames)
        assert [rooms[pk]["taken"] for pk in ids] == [2] + [1] * (len(ids) - 1)
        # A room whose changes undo each other within the second is not sent at all.
        await leave(table_id=ids[1], user=players[1])
        await sit(table_id=ids[1], user=players[1], seat=0, buy_in=2_000)
        await heard(1)
        assert rooms[ids[1]]["min_buy_in"] == 2_000  # the page's fields stay
        # Nothing changed since: the next send sends nothing.
        await lobby_relay().flush()
        assert await lobby.drain() == []
        for sock in (lobby, other):
            await sock.close()

    async_to_sync(scenario)()


def test_changes_off_the_page_are_not_sent_to_it(make_player):
    ids = bulk_rooms(PAGE_SIZE + 3)
    viewer, somebody = make_player("viewer"), make_player()

    async def scenario():
        first = await open_socket("/ws/lobby/", user=viewer, name="page 1")
        second = await open_socket("/ws/lobby/", user=somebody, name="page 2")
        await first.receive()
        await second.receive()
        await second.send({"type": "lobby_view", "page": 2})
        await second.receive()
        await sit(table_id=ids[-1], user=somebody, seat=0, buy_in=2_000)
        await heard(1)
        await lobby_relay().flush()
        assert await first.drain() == []
        (frame,) = await second.drain()
        assert frame["type"] == "rooms" and [r["id"] for r in frame["rooms"]] == [ids[-1]]
        for sock in (first, second):
            await sock.close()

    async_to_sync(scenario)()


def test_a_room_coming_onto_or_leaving_the_filtered_page_brings_the_page_again(make_player):
    ids = bulk_rooms(3)
    alice, bob, viewer = make_player("alice"), make_player("bob"), make_player("viewer")
    table_sit(table_id=ids[0], user=alice, seat=0, buy_in=2_000)

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        await lobby.receive()
        await lobby.send({"type": "lobby_view", "hide_empty": True})
        assert [r["id"] for r in (await lobby.receive())["rooms"]] == ids[:1]

        await sit(table_id=ids[2], user=bob, seat=0, buy_in=2_000)  # now listed
        await heard(1)
        await lobby_relay().flush()
        (page,) = await lobby.drain()
        assert page["type"] == "lobby" and [r["id"] for r in page["rooms"]] == [ids[0], ids[2]]
        assert page["totals"] == {"matching": 2, "rooms": 3, "players": 2}

        await leave(table_id=ids[0], user=alice)  # no longer listed
        await heard(1)
        await lobby_relay().flush()
        (page,) = await lobby.drain()
        assert page["type"] == "lobby" and [r["id"] for r in page["rooms"]] == [ids[2]]

        await database_sync_to_async(room_close)(table_id=ids[2])
        await heard(1)
        await lobby_relay().flush()
        (page,) = await lobby.drain()
        assert page["type"] == "lobby" and page["rooms"] == []
        await lobby.close()

    async_to_sync(scenario)()


def test_a_page_is_read_again_at_most_every_few_seconds(make_player, monkeypatch):
    """Between two reads a page that changed keeps sending its rooms' changes; the client's own
    filter hides a room that left it until the page is read again."""
    monkeypatch.setattr(relay_module, "STALE_READ_SECONDS", 3600)
    ids = bulk_rooms(2, seats=2)
    alice, bob, viewer = make_player("alice"), make_player("bob"), make_player("viewer")
    table_sit(table_id=ids[0], user=alice, seat=0, buy_in=2_000)

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        await lobby.receive()
        await lobby.send({"type": "lobby_view", "hide_full": True})
        assert [r["id"] for r in (await lobby.receive())["rooms"]] == ids
        await sit(table_id=ids[0], user=bob, seat=1, buy_in=2_000)  # full now
        await heard(1)
        await lobby_relay().flush()
        (frame,) = await lobby.drain()
        assert frame["type"] == "rooms" and frame["rooms"][0]["taken"] == 2
        # The wait over, the page is read again without it.
        monkeypatch.setattr(relay_module, "STALE_READ_SECONDS", 0)
        await lobby_relay().flush()
        (page,) = await lobby.drain()
        assert page["type"] == "lobby" and [r["id"] for r in page["rooms"]] == ids[1:]
        await lobby.close()

    async_to_sync(scenario)()


def test_a_new_socket_of_a_page_in_use_is_told_the_changes_it_has(make_player):
    """The relay reads a page once for all its sockets; a socket that comes later gets the page
    as the changes have brought it, then hears the changes still to be sent."""
    ids = bulk_rooms(2)
    alice, bob, viewer = make_player("alice"), make_player("bob"), make_player("viewer")

    async def scenario():
        early = await open_socket("/ws/lobby/", user=viewer, name="early")
        await early.receive()
        await sit(table_id=ids[0], user=alice, seat=0, buy_in=2_000)
        await heard(1)
        await lobby_relay().flush()
        await early.drain()
        reads = lobby_relay().pages
        assert len(reads) == 1
        late = await open_socket("/ws/lobby/", user=bob, name="late")
        first = await late.receive()
        assert {r["id"]: r["taken"] for r in first["rooms"]} == {ids[0]: 1, ids[1]: 0}
        await sit(table_id=ids[1], user=bob, seat=0, buy_in=2_000)
        await heard(1)
        await lobby_relay().flush()
        for sock in (early, late):
            assert lobby_rooms(sock.frames)[ids[1]]["taken"] == 0
            await sock.drain()
            assert lobby_rooms(sock.frames)[ids[1]]["taken"] == 1
        for sock in (early, late):
            await sock.close()
        assert lobby_relay().channel is None  # the last lobby socket gone: the relay left

    async_to_sync(scenario)()


def test_after_a_lost_layer_the_relay_joins_again_and_reads_the_pages_again(make_player):
    ids = bulk_rooms(2)
    alice, viewer = make_player("alice"), make_player("viewer")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        await lobby.receive()
        relay = lobby_relay()
        # A change the relay never heard (the layer lost the group meanwhile).
        await database_sync_to_async(Table.objects.filter(pk=ids[0]).update)(spectators=4)
        await relay.rejoin()
        await relay.flush()
        (page,) = await lobby.drain()
        assert page["type"] == "rooms" and page["rooms"][0]["id"] == ids[0]
        assert page["rooms"][0]["spectators"] == 4
        # And the group is joined again: changes come as before.
        await sit(table_id=ids[1], user=alice, seat=0, buy_in=2_000)
        await heard(1)
        await relay.flush()
        assert lobby_rooms(lobby.frames)[ids[1]]["taken"] == 0
        await lobby.drain()
        assert lobby_rooms(lobby.frames)[ids[1]]["taken"] == 1
        await lobby.close()

    async_to_sync(scenario)()


def test_sit_and_go_changes_ride_the_same_frame(make_player):
    (first, second) = open_sit_and_gos(2)
    ann, ben, viewer, cash_only = (make_player(n) for n in ("ann", "ben", "viewer", "cash"))

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        rooms_only = await open_socket("/ws/lobby/", user=cash_only, name="rooms only")
        assert [s["id"] for s in (await lobby.receive())["sit_and_gos"]] == [first.pk, second.pk]
        await rooms_only.receive()
        await rooms_only.send({"type": "lobby_view", "kind": "cash"})
        assert (await rooms_only.receive())["sit_and_gos"] == []
        register = database_sync_to_async(tournament_register)
        await register(tournament_id=first.pk, user=ann)
        await register(tournament_id=second.pk, user=ben)
        relay = lobby_relay()
        for _ in range(300):
            if len(relay.lists["sit_and_gos"].changes) == 2:
                break
            await asyncio.sleep(0.01)
        await relay.flush()
        (frame,) = await lobby.drain()
        assert frame["type"] == "rooms" and frame["rooms"] == []
        players = {s["id"]: s["players"] for s in frame["sit_and_gos"]}
        assert players == {first.pk: ["ann"], second.pk: ["ben"]}
        assert await rooms_only.drain() == []
        for sock in (lobby, rooms_only):
            await sock.close()

    async_to_sync(scenario)()


def test_scheduled_tournament_changes_ride_the_same_frame_coalesced(make_player):
    """RULES.md 9: the lobby's `tournament` frames (lobby_announce) reach the lobby sockets as
    the Sit & Gos' do: in the first `lobby` frame's list, then in the next `rooms` frame, the
    latest of each tournament once however many changes came that second; never under the
    cash view."""
    starts_at = timezone.now() + timedelta(hours=1)
    first, second = (
        tournament_schedule(name=name, starts_at=starts_at, buy_in=100) for name in ("A", "B")
    )
    players = [make_player() for _ in range(3)]
    viewer, cash_only = make_player("viewer"), make_player("cash")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        rooms_only = await open_socket("/ws/lobby/", user=cash_only, name="rooms only")
        page = await lobby.receive()
        assert [t["id"] for t in page["tournaments"]] == [first.pk, second.pk]
        assert page["tournaments_total"] == 2
        await rooms_only.receive()
        await rooms_only.send({"type": "lobby_view", "kind": "cash"})
        assert (await rooms_only.receive())["tournaments"] == []
        register = database_sync_to_async(mtt_register)
        for player in players[:2]:
            await register(tournament_id=first.pk, user=player)
        await register(tournament_id=second.pk, user=players[2])
        relay = lobby_relay()
        for _ in range(300):
            if relay.lists["tournaments"].changes.get(first.pk, {}).get("registered") == 2:
                break
            await asyncio.sleep(0.01)
        await relay.flush()
        (frame,) = await lobby.drain()
        assert frame["type"] == "rooms" and frame["rooms"] == [] and "sit_and_gos" not in frame
        registered = {t["id"]: t["registered"] for t in frame["tournaments"]}
        assert registered == {first.pk: 2, second.pk: 1}  # one each: the latest
        assert frame["tournaments"][0]["kind"] == "scheduled"
        assert await rooms_only.drain() == []
        # Nothing more heard: nothing more sent.
        await relay.flush()
        assert await lobby.drain() == []
        for sock in (lobby, rooms_only):
            await sock.close()

    async_to_sync(scenario)()


def test_the_tournament_list_is_bounded_like_the_sit_and_gos(make_player):
    """A new tournament joins the socket's list only while it has room (PAGE_SIZE); the list is
    read again in full every REFRESH_SECONDS."""
    starts_at = timezone.now() + timedelta(hours=1)
    Tournament.objects.bulk_create(
        Tournament(
            kind=TournamentKind.SCHEDULED,
            name=f"Bulk {n}",
            starts_at=starts_at + timedelta(minutes=n),
            seats=9,
            structure="no_limit",
            buy_in=10,
            fee=0,
            starting_stack=1_000,
            level_seconds=60,
            blind_schedule=[],
            payouts=[],
            turn_seconds=30,
            time_bank_seconds=0,
            auto_muck=True,
        )
        for n in range(PAGE_SIZE)
    )
    viewer = make_player("viewer")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        page = await lobby.receive()
        assert len(page["tournaments"]) == PAGE_SIZE and page["tournaments_total"] == PAGE_SIZE
        schedule = database_sync_to_async(tournament_schedule)
        late = await schedule(name="One more", starts_at=starts_at, buy_in=10)
        relay = lobby_relay()
        for _ in range(300):
            if relay.lists["tournaments"].changes:
                break
            await asyncio.sleep(0.01)
        await relay.flush()
        assert await lobby.drain() == []  # the list is full: not added
        assert late.pk not in {t["id"] for t in relay.lists["tournaments"].listed["tournaments"]}
        await lobby.close()

    async_to_sync(scenario)()


@pytest.mark.redis
def test_changes_are_coalesced_through_the_redis_layer(settings, redis_url, make_player):
    """The same through the layer the site runs on (pub/sub on Redis): the services publish, the
    relay is the lobby group's one member in this process."""
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(redis_url, "pubsub")}
    ids = bulk_rooms(6)
    players = [make_player() for _ in ids]
    viewer = make_player("viewer")

    async def scenario():
        lobby = await open_socket("/ws/lobby/", user=viewer, name="viewer lobby")
        await lobby.receive()
        await asyncio.sleep(0.2)  # a subscription takes effect asynchronously
        for table_id, user in zip(ids, players):
            await sit(table_id=table_id, user=user, seat=0, buy_in=2_000)
        await heard(len(ids))
        await lobby_relay().flush()
        (frame,) = await lobby.drain()
        assert frame["type"] == "rooms" and sorted(r["id"] for r in frame["rooms"]) == ids
        await lobby.close()

    async_to_sync(scenario)()

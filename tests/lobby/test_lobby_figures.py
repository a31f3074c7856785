"""The lobby's figures per room over the last hour: hands per hour, average pot, players per flop,
and the waiting lists; for every room in a fixed number of queries."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from holdem import engine
from holdem.models import HandAction, HandParticipant, HandRecord
from holdem.selectors.lobby import room_figures
from holdem.services import table_act, table_sit
from holdem.services.waiting import waiting_join
from tests.holdem.conftest import current

pytestmark = pytest.mark.django_db

BOARD = ["2c", "7d", "9h", "Js", "Kd"]


def record_hand(table, players, *, ended_ago, board, pots, folds=()):
    """A finished hand as the services store it: `players` are users by seat, `pots` the pot
    amounts, `folds` (seat, street) pairs in the action log."""
    now = timezone.now()
    number = HandRecord.objects.filter(table=table).count() + 1
    record = HandRecord.objects.create(
        table=table,
        number=number,
        started_at=now - (ended_ago or timedelta(0)) - timedelta(seconds=40),
        ended_at=None if ended_ago is None else now - ended_ago,
        button_seat=min(players),
        options={},
        players=[{"seat": seat, "user_id": user.pk} for seat, user in players.items()],
        deck=[],
        board=board,
        pots=[{"amount": amount, "eligible": [], "winners": [], "shares": {}} for amount in pots],
    )
    for seat, user in players.items():
        HandParticipant.objects.create(hand=record, user=user, seat=seat)
    for index, (seat, street) in enumerate(folds):
        HandAction.objects.create(
            hand=record,
            index=index,
            seat=seat,
            user=players[seat],
            action="fold",
            street=street,
        )
    return record


@pytest.fixture
def two_rooms(room, make_player):
    first, second = room("nl50"), room("pl50")
    users = {n: make_player() for n in range(4)}
    return first, second, users


def test_the_last_hour_gives_hands_average_pot_and_players_per_flop(two_rooms):
    first, second, users = two_rooms
    # Four dealt, two fold before the flop, one more on the flop: two saw it.
    record_hand(
        first,
        users,
        ended_ago=timedelta(minutes=5),
        board=BOARD,
        pots=[300, 200],
        folds=[(0, "preflop"), (1, "preflop"), (2, "flop")],
    )
    # Three dealt, two fold to the big blind: the hand never reached the flop.
    three = {n: users[n] for n in (0, 1, 2)}
    record_hand(
        first,
        three,
        ended_ago=timedelta(minutes=20),
        board=[],
        pots=[150],
        folds=[(0, "preflop"), (1, "preflop")],
    )
    # Two all in before the flop: both saw it (the board was run out).
    two = {n: users[n] for n in (2, 3)}
    record_hand(first, two, ended_ago=timedelta(minutes=59), board=BOARD, pots=[10_000])
    # Older than an hour, and a hand still being played: not counted.
    record_hand(first, users, ended_ago=timedelta(minutes=61), board=BOARD, pots=[99_999])
    record_hand(first, users, ended_ago=None, board=[], pots=[])
    # Another room, one hand.
    record_hand(second, two, ended_ago=timedelta(minutes=1), board=BOARD, pots=[400])

    figures = room_figures()
    assert figures[first.pk]["hands_per_hour"] == 3
    assert figures[first.pk]["average_pot"] == (500 + 150 + 10_000) // 3  # 3,550
    assert figures[first.pk]["players_per_flop"] == round(100 * (2 + 0 + 2) / (4 + 3 + 2))  # 44
    assert figures[second.pk] == {
        "hands_per_hour": 1,
        "average_pot": 400,
        "players_per_flop": 100,
        "waiting": 0,
        "reserved": 0,
    }


def test_every_pot_of_a_many_way_hand_is_added(two_rooms, make_player):
    first, _, _ = two_rooms
    ten = {n: make_player() for n in range(10)}
    record_hand(first, ten, ended_ago=timedelta(minutes=2), board=BOARD, pots=[1_000] * 10)
    assert room_figures()[first.pk]["average_pot"] == 10_000


def test_a_room_without_hands_has_no_figures_to_show(two_rooms, client):
    first, _, users = two_rooms
    record_hand(first, users, ended_ago=timedelta(hours=2), board=BOARD, pots=[500])
    assert first.pk not in room_figures()
    client.force_login(users[0])
    rooms = {room["id"]: room for room in client.get(reverse("rooms_now")).json()["rooms"]}
    assert rooms[first.pk]["hands_per_hour"] == 0
    assert rooms[first.pk]["average_pot"] is None
    assert rooms[first.pk]["players_per_flop"] is None


def test_the_figures_of_all_rooms_take_three_queries_however_many_rooms(room, make_player):
    users = {n: make_player() for n in range(3)}
    for count in (2, 6):
        while len(room_figures()) < count:
            table = room("nl50")
            record_hand(table, users, ended_ago=timedelta(minutes=3), board=BOARD, pots=[200])
        with CaptureQueriesContext(connection) as captured:
            assert len(room_figures()) == count
        assert len(captured.captured_queries) == 3


def test_hands_played_through_the_services_are_counted(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2))
    clock.advance(31)
    # Everybody folds to the big blind: nobody saw a flop, and the pot is the small blind and
    # as much of the big blind (the 50 nobody called goes back to it).
    while (state := current(table)) is not None:
        seat = engine.legal_actions(state).seat
        table_act(table_id=table.pk, user=users[seat], action="fold")
    figures = room_figures(now=clock.now)[table.pk]
    assert figures["hands_per_hour"] == 1
    assert figures["average_pot"] == 100
    assert figures["players_per_flop"] == 0


def test_the_lobby_serves_the_figures_and_the_waiting_lists(room, make_player, client):
    table = room("nl50", seats=2)
    users = {n: make_player() for n in range(2)}
    for number, user in users.items():
        table_sit(table_id=table.pk, user=user, seat=number, buy_in=3_000)
    waiting = make_player()
    waiting_join(table_id=table.pk, user=waiting)
    record_hand(table, users, ended_ago=timedelta(minutes=9), board=BOARD, pots=[1_234_567])
    client.force_login(waiting)
    served = {room["id"]: room for room in client.get(reverse("rooms_now")).json()["rooms"]}
    assert served[table.pk]["waiting"] == 1 and served[table.pk]["reserved"] == 0
    assert served[table.pk]["average_pot"] == 1_234_567
    page = client.get(reverse("lobby")).content.decode()
    assert "1,234,567" in page  # thousands separators in the page as served
    assert '"place": 1' in page  # the viewer's own place in line, for lobby.js

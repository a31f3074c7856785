"""The waiting list of a full room: join, leave, places; a freed seat offered to the
first in line and held for them for 30 seconds; taken, declined, or passed on by the sweep when
the time runs out; every bad request refused with a code, changing nothing; chips untouched."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from casino.errors import DomainError
from holdem import engine
from holdem.models import DEADLINES_CLOCK, ClockBeat, Seat, WaitingEntry
from holdem.selectors.waiting_list import OFFER_SECONDS, waiting_lines_of
from holdem.services import (
    deadlines_fire_due,
    room_close,
    table_act,
    table_leave,
    table_sit,
    table_switch,
)
from holdem.services.waiting import (
    MAX_LINES_PER_USER,
    waiting_join,
    waiting_leave,
    waiting_offer_held,
)
from tests.holdem.conftest import chips_everywhere, current
from tests.holdem.test_fixed_decks import rigged

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """The frames the waiting list queues for after the commit: (group, frame) pairs."""
    frames = []

    def capture(messages):
        frames.extend((group, json.loads(message["text"])) for group, message in messages)

    monkeypatch.setattr("holdem.services.waiting.send_on_commit", capture)
    return frames


@pytest.fixture
def full_room(room, make_player):
    """A two-seat room with both seats taken: returns (table, {seat: user})."""
    table = room("nl50", seats=2)
    players = {}
    for number in (0, 1):
        players[number] = make_player()
        table_sit(table_id=table.pk, user=players[number], seat=number, buy_in=2_000)
    return table, players


@pytest.fixture
def line(full_room, make_player):
    """The full room with three players in line, in order."""
    table, players = full_room
    waiting = [make_player() for _ in range(3)]
    for user in waiting:
        waiting_join(table_id=table.pk, user=user)
    return table, players, waiting


def standing(table):
    """The line as stored: (user id, offered seat) in order."""
    return list(
        WaitingEntry.objects.filter(table=table)
        .order_by("id")
        .values_list("user_id", "offered_seat")
    )


def place_of(user, table) -> int | None:
    return next((w["place"] for w in waiting_lines_of(user) if w["table_id"] == table.pk), None)


def test_players_join_a_full_room_in_order_and_learn_their_place(line, sent):
    table, _, waiting = line
    assert standing(table) == [(user.pk, None) for user in waiting]
    assert [place_of(user, table) for user in waiting] == [1, 2, 3]
    (mine,) = waiting_lines_of(waiting[1])
    assert (mine["waiting"], mine["offer"], mine["name"]) == (3, None, table.name)


def test_a_player_who_leaves_moves_those_behind_up_and_they_hear_it(line, sent):
    table, _, waiting = line
    sent.clear()
    waiting_leave(table_id=table.pk, user=waiting[0])
    assert [place_of(user, table) for user in waiting[1:]] == [1, 2]
    told = dict(sent)
    assert told[f"user.{waiting[0].pk}"]["place"] is None
    assert told[f"user.{waiting[0].pk}"]["reason"] == "left"
    assert told[f"user.{waiting[1].pk}"]["place"] == 1
    assert told[f"user.{waiting[2].pk}"]["place"] == 2
    assert "lobby" not in told  # no seat held changed: the lobby's counts come with its polling


def test_a_freed_seat_is_offered_to_the_first_in_line_only(line, clock, sent):
    table, players, waiting = line
    sent.clear()
    table_leave(table_id=table.pk, user=players[0])
    assert standing(table) == [(waiting[0].pk, 0), (waiting[1].pk, None), (waiting[2].pk, None)]
    entry = WaitingEntry.objects.get(user=waiting[0])
    assert entry.offer_expires_at == clock.now + timedelta(seconds=OFFER_SECONDS)
    told = dict(sent)
    offer = told[f"user.{waiting[0].pk}"]
    assert offer["type"] == "waiting" and offer["place"] == 1
    assert offer["offer"]["seat"] == 0 and offer["offer"]["seconds"] == 30
    assert offer["offer"]["expires_at"] - offer["now"] == 30_000
    assert told["lobby"] == {
        "type": "waiting_room",
        "table_id": table.pk,
        "waiting": 3,
        "reserved": 1,
    }
    # Nobody else heard of it: their place did not change.
    assert f"user.{waiting[1].pk}" not in told and f"user.{waiting[2].pk}" not in told


def test_the_seat_offered_is_held_against_everyone_else(line, make_player):
    table, players, waiting = line
    table_leave(table_id=table.pk, user=players[0])
    stranger = make_player()
    for user in (stranger, waiting[1]):
        before = (standing(table), user.wallet.balance)
        with pytest.raises(DomainError) as refused:
            table_sit(table_id=table.pk, user=user, seat=0, buy_in=2_000)
        assert refused.value.code == "seat_reserved"
        user.wallet.refresh_from_db()
        assert (standing(table), user.wallet.balance) == before
    # Its only free seat held, the room still counts as full: the stranger may get in line.
    assert waiting_join(table_id=table.pk, user=stranger) == 4
    chips_everywhere()


def test_taking_the_offered_seat_seats_the_player_and_ends_their_wait(line, sent):
    table, players, waiting = line
    table_leave(table_id=table.pk, user=players[0])
    assert waiting_offer_held(table_id=table.pk, user=waiting[0]) == 0
    sent.clear()
    table_sit(table_id=table.pk, user=waiting[0], seat=0, buy_in=3_000)
    assert Seat.objects.get(user=waiting[0]).number == 0
    assert standing(table) == [(waiting[1].pk, None), (waiting[2].pk, None)]
    told = dict(sent)
    assert told[f"user.{waiting[0].pk}"]["reason"] == "seated"
    assert told[f"user.{waiting[1].pk}"]["place"] == 1
    assert told["lobby"]["reserved"] == 0
    chips_everywhere()


def test_declining_passes_the_seat_to_the_next_in_line(line, sent):
    table, players, waiting = line
    table_leave(table_id=table.pk, user=players[1])
    sent.clear()
    waiting_leave(table_id=table.pk, user=waiting[0])
    assert standing(table) == [(waiting[1].pk, 1), (waiting[2].pk, None)]
    told = dict(sent)
    assert told[f"user.{waiting[0].pk}"]["reason"] == "declined"
    assert told[f"user.{waiting[1].pk}"]["offer"]["seat"] == 1
    assert "lobby" not in told  # still one seat held


def test_an_offer_that_runs_out_passes_to_the_next_in_line_on_the_sweep(line, clock, sent):
    table, players, waiting = line
    table_leave(table_id=table.pk, user=players[0])
    assert "offers_lapsed" not in clock.advance(OFFER_SECONDS - 1)
    assert standing(table)[0] == (waiting[0].pk, 0)
    sent.clear()
    assert clock.advance(2)["offers_lapsed"] == 1
    assert standing(table) == [(waiting[1].pk, 0), (waiting[2].pk, None)]
    assert WaitingEntry.objects.get(user=waiting[1]).offer_expires_at == clock.now + timedelta(
        seconds=OFFER_SECONDS
    )
    told = dict(sent)
    assert told[f"user.{waiting[0].pk}"]["reason"] == "lapsed"
    assert told[f"user.{waiting[1].pk}"]["offer"]["seat"] == 0
    # The sweep again: nothing more is due (idempotent).
    assert "offers_lapsed" not in deadlines_fire_due(clock.now)
    # The late one is out of line now; the seat is the next one's.
    with pytest.raises(DomainError) as refused:
        table_sit(table_id=table.pk, user=waiting[0], seat=0, buy_in=2_000)
    assert refused.value.code == "seat_reserved"


def test_the_time_to_take_a_seat_ends_on_time_even_before_the_sweep_runs(line, clock):
    table, players, waiting = line
    table_leave(table_id=table.pk, user=players[0])
    clock.now += timedelta(seconds=OFFER_SECONDS)  # no sweep yet
    for attempt in (
        lambda: table_sit(table_id=table.pk, user=waiting[0], seat=0, buy_in=2_000),
        lambda: waiting_offer_held(table_id=table.pk, user=waiting[0]),
    ):
        with pytest.raises(DomainError) as refused:
            attempt()
        assert refused.value.code == "offer_expired"
    assert not Seat.objects.filter(user=waiting[0]).exists()
    chips_everywhere()


def test_once_the_line_runs_out_the_seat_is_anyones(full_room, make_player, clock):
    table, players = full_room
    alone = make_player()
    waiting_join(table_id=table.pk, user=alone)
    table_leave(table_id=table.pk, user=players[0])
    clock.advance(OFFER_SECONDS + 1)
    assert standing(table) == []
    newcomer = make_player()
    table_sit(table_id=table.pk, user=newcomer, seat=0, buy_in=2_000)
    chips_everywhere()


def test_an_offer_that_ran_out_while_the_site_was_down_starts_again(line, clock):
    table, players, waiting = line
    table_leave(table_id=table.pk, user=players[0])
    # The clock last ran 5 s after the offer was made; it comes back a minute later.
    ClockBeat.objects.update_or_create(
        name=DEADLINES_CLOCK, defaults={"ran_at": clock.now + timedelta(seconds=5)}
    )
    clock.now += timedelta(seconds=60)
    assert "offers_lapsed" not in deadlines_fire_due(clock.now)
    entry = WaitingEntry.objects.get(user=waiting[0])
    assert entry.offered_seat == 0
    assert entry.offer_expires_at == clock.now + timedelta(seconds=OFFER_SECONDS)


def test_a_player_who_busts_frees_a_seat_for_the_line(full_room, make_player, clock, monkeypatch):
    table, players = full_room
    first = make_player()
    waiting_join(table_id=table.pk, user=first)
    # Seat 0 has the button and is dealt second; its aces beat seat 1's seven-deuce all in.
    monkeypatch.setattr("holdem.services.game_kinds.next_button", lambda previous, dealt, rng: 0)
    deck = rigged([["7c", "2d"], ["Ah", "Ad"]], ["As", "Kd", "9h", "4c", "3s"])
    monkeypatch.setattr("holdem.services.hand_start.hand_deck", lambda: list(deck))
    clock.advance(31)
    while (state := current(table)) is not None:
        seat = engine.legal_actions(state).seat
        table_act(table_id=table.pk, user=players[seat], action="all_in")
    assert not Seat.objects.filter(user=players[1]).exists()
    assert standing(table) == [(first.pk, 1)]
    chips_everywhere()


def test_switching_rooms_frees_the_seat_for_the_line(line, room):
    table, players, waiting = line
    table_switch(user=players[1], to_table_id=room("pl50").pk)
    assert standing(table)[0] == (waiting[0].pk, 1)


def test_a_closing_room_empties_its_line(line, clock, sent):
    table, _, waiting = line
    room_close(table_id=table.pk)
    sent.clear()
    clock.advance(1)
    assert standing(table) == []
    reasons = {group: frame["reason"] for group, frame in sent if group != "lobby"}
    assert reasons == {f"user.{user.pk}": "closed" for user in waiting}


def test_a_player_seated_elsewhere_stays_in_line_and_taking_the_seat_gives_the_other_up(
    line, room, make_player, client
):
    table, players, waiting = line
    other = room("pl50", seats=2)
    table_sit(table_id=other.pk, user=waiting[0], seat=0, buy_in=2_000)
    table_sit(table_id=other.pk, user=make_player(), seat=1, buy_in=2_000)
    behind_there = make_player()
    waiting_join(table_id=other.pk, user=behind_there)
    assert place_of(waiting[0], table) == 1  # sitting down elsewhere kept the place
    table_leave(table_id=table.pk, user=players[0])

    client.force_login(waiting[0])
    answer = client.post(reverse("waiting_take", args=[table.pk]))
    assert answer.status_code == 200
    assert answer.json() == {"url": f"/tables/{table.pk}/?take_seat=0", "seat": 0}
    # The seat held elsewhere was given up (chips back), and offered to that room's line.
    assert not Seat.objects.filter(user=waiting[0]).exists()
    assert standing(other) == [(behind_there.pk, 0)]
    table_sit(table_id=table.pk, user=waiting[0], seat=0, buy_in=2_500)
    chips_everywhere()


@pytest.mark.parametrize(
    "case, code",
    [
        ("room not full", "room_not_full"),
        ("twice", "already_waiting"),
        ("seated here", "already_seated"),
        ("no such room", "no_such_room"),
        ("closed room", "table_closed"),
        ("too many lines", "too_many_lists"),
        ("leave without waiting", "not_waiting"),
        ("take without waiting", "not_waiting"),
        ("take before an offer", "no_offer"),
    ],
)
def test_bad_requests_are_refused_with_a_code_and_change_nothing(
    case, code, line, room, make_player
):
    table, players, waiting = line
    user = make_player()
    open_room = room("nl50")
    if case == "too many lines":
        for _ in range(MAX_LINES_PER_USER):
            full = room("nl50", seats=2)
            for number in (0, 1):
                table_sit(table_id=full.pk, user=make_player(), seat=number, buy_in=2_000)
            waiting_join(table_id=full.pk, user=user)
    if case == "closed room":
        room_close(table_id=table.pk)
    attempts = {
        "room not full": lambda: waiting_join(table_id=open_room.pk, user=user),
        "twice": lambda: waiting_join(table_id=table.pk, user=waiting[1]),
        "seated here": lambda: waiting_join(table_id=table.pk, user=players[0]),
        "no such room": lambda: waiting_join(table_id=table.pk + 1000, user=user),
        "closed room": lambda: waiting_join(table_id=table.pk, user=user),
        "too many lines": lambda: waiting_join(table_id=table.pk, user=user),
        "leave without waiting": lambda: waiting_leave(table_id=table.pk, user=user),
        "take without waiting": lambda: waiting_offer_held(table_id=table.pk, user=user),
        "take before an offer": lambda: waiting_offer_held(table_id=table.pk, user=waiting[1]),
    }
    before = list(WaitingEntry.objects.order_by("id").values_list("id", "offered_seat"))
    with pytest.raises(DomainError) as refused:
        attempts[case]()
    assert refused.value.code == code
    assert list(WaitingEntry.objects.order_by("id").values_list("id", "offered_seat")) == before


def test_the_http_endpoints_answer_with_the_lines_or_a_coded_error(line, client, make_player):
    table, _, waiting = line
    newcomer = make_player()
    client.force_login(newcomer)
    joined = client.post(reverse("waiting_join", args=[table.pk]))
    assert joined.status_code == 200
    (entry,) = joined.json()["entries"]
    assert (entry["table_id"], entry["place"], entry["waiting"]) == (table.pk, 4, 4)
    again = client.post(reverse("waiting_join", args=[table.pk]))
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "already_waiting"
    assert client.get(reverse("waiting_join", args=[table.pk])).status_code == 405
    taken = client.post(reverse("waiting_take", args=[table.pk]))
    assert taken.json()["error"]["code"] == "no_offer"
    assert client.get(reverse("waiting_now")).json()["entries"][0]["place"] == 4
    left = client.post(reverse("waiting_leave", args=[table.pk]))
    assert left.json()["entries"] == []
    client.logout()
    assert client.post(reverse("waiting_join", args=[table.pk])).status_code == 302  # sign in
    assert len(standing(table)) == len(waiting)


def test_taking_a_seat_while_dealt_in_elsewhere_is_refused_and_the_offer_stands(
    line, room, make_player, clock, client
):
    table, players, waiting = line
    other = room("pl50", seats=2)
    table_sit(table_id=other.pk, user=waiting[0], seat=0, buy_in=2_000)
    table_sit(table_id=other.pk, user=make_player(), seat=1, buy_in=2_000)
    table_leave(table_id=table.pk, user=players[0])
    clock.advance(11)  # the other room, full, deals after 10 s (RULES.md 2)
    assert current(other) is not None
    client.force_login(waiting[0])
    answer = client.post(reverse("waiting_take", args=[table.pk]))
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "in_hand"
    assert Seat.objects.get(user=waiting[0]).table_id == other.pk
    assert standing(table)[0] == (waiting[0].pk, 0)
    chips_everywhere()

"""The leaderboard (holdem/selectors/stats.py, /leaderboard/): net winners over the hands that
ended in the last 7 days, the last 30 days and all time, from hands played through the services
and then dated (HandRecord is not append-only; its action log is)."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from holdem.models import HandRecord
from holdem.selectors.stats import leaderboard, leaderboards
from holdem.services import game_kinds, table_act
from tests.holdem.conftest import current

pytestmark = pytest.mark.django_db


@pytest.fixture
def dated_hands(seated, clock, monkeypatch):
    """Two heads-up tables, the button always on seat 0 (it acts first before the flop, last
    after it). Returns the players by name; every hand is over without a showdown."""

    monkeypatch.setattr(game_kinds, "next_button", lambda previous, dealt, rng: 0)
    first, first_players = seated("nl50")
    second, second_players = seated("nl50")
    alice, bob = first_players[0], first_players[1]
    carol, dave = second_players[0], second_players[1]

    def play(table, players, moves, days_ago):
        for action, amount in moves:
            state = current(table)
            table_act(table_id=table.pk, user=players[state.to_act], action=action, amount=amount)
        assert current(table) is None
        record = HandRecord.objects.filter(table=table).order_by("-id").first()
        HandRecord.objects.filter(pk=record.pk).update(
            ended_at=clock.now - timedelta(days=days_ago)
        )

    clock.advance(31)  # both tables deal
    play(first, first_players, [("fold", None)], days_ago=40)  # alice -50, bob +50
    play(second, second_players, [("fold", None)], days_ago=2)  # carol -50, dave +50
    clock.advance(31)  # both deal again; the second table's hand is left in progress
    play(first, first_players, [("raise", 300), ("fold", None)], days_ago=10)  # alice +100
    clock.advance(31)
    # alice limps, bob checks, bets 1,000 on the flop, alice raises to 3,000, bob folds.
    play(
        first,
        first_players,
        [("call", None), ("check", None), ("bet", 1_000), ("raise", 3_000), ("fold", None)],
        days_ago=1,
    )  # alice +1,100, bob -1,100
    # A hand not over yet has no nets: it counts nowhere.
    assert current(second) is not None
    return {"alice": alice, "bob": bob, "carol": carol, "dave": dave}


def test_each_window_sums_the_nets_of_the_hands_that_ended_in_it(dated_hands):
    names = {user.pk: name for name, user in dated_hands.items()}
    boards = {board.key: board for board in leaderboards()}
    assert [board.title for board in boards.values()] == [
        "Last 7 days",
        "Last 30 days",
        "All time",
    ]

    def named(rows):
        return [(names[row.user_id], row.net, row.hands) for row in rows]

    assert named(boards["week"].rows) == [
        ("alice", 1_100, 1),
        ("dave", 50, 1),
        ("carol", -50, 1),
        ("bob", -1_100, 1),
    ]
    assert named(boards["month"].rows) == [
        ("alice", 1_200, 2),
        ("dave", 50, 1),
        ("carol", -50, 1),
        ("bob", -1_200, 2),
    ]
    assert named(boards["all"].rows) == [
        ("alice", 1_150, 3),
        ("dave", 50, 1),
        ("carol", -50, 1),
        ("bob", -1_150, 3),
    ]
    assert [row.rank for row in boards["all"].rows] == [1, 2, 3, 4]


def test_the_board_stops_at_its_limit_and_ties_go_by_hands_then_name(dated_hands, clock):
    top = leaderboard(since=None, limit=2)
    assert [row.username for row in top] == [
        dated_hands["alice"].username,
        dated_hands["dave"].username,
    ]
    # A window with nothing in it is empty, not an error.
    assert leaderboard(since=clock.now + timedelta(days=1)) == []


def test_the_three_boards_take_three_queries(dated_hands, django_assert_num_queries):
    with django_assert_num_queries(3):
        leaderboards()


def test_the_leaderboard_page_is_in_the_navigation_and_formats_the_numbers(dated_hands, client):
    assert client.get(reverse("leaderboard")).status_code == 302  # signed-in players only
    client.force_login(dated_hands["bob"])
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("leaderboard")}"' in lobby
    page = client.get(reverse("leaderboard")).content.decode()
    week = page.split('data-board="week"')[1].split('data-board="month"')[0]
    assert "+1,100" in week and "-1,100" in week
    every = page.split('data-board="all"')[1]
    assert "+1,150" in every and "-1,150" in every
    # The viewer's own row stands out.
    mine = re.findall(r'<tr class="you-row">.*?</tr>', every, re.S)
    assert len(mine) == 1 and dated_hands["bob"].username in mine[0]


def test_the_leaderboard_page_without_hands_says_so(client, make_player):
    client.force_login(make_player())
    page = client.get(reverse("leaderboard")).content.decode()
    assert page.count("No hands ended in this period.") == 3

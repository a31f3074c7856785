"""A scheduled tournament's own page and its live.json (RULES.md 9): registering, running (the
level, the tables with their players and stacks, each to watch), finished (the places, the prizes
and the hands), read in a fixed number of queries whatever its size, no card anywhere, and a
missing one is a 404."""

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from holdem.models import HandRecord, Seat, Table, TableStatus, Tournament, TournamentStatus
from holdem.selectors.tournament_page import HANDS_SHOWN, tournament_page_data
from holdem.services.multi_table import mtt_register
from tests.holdem.test_admin_privacy import cards_in
from tests.holdem.test_multi_table import check_invariants, play_to_the_end
from tests.lobby.test_sit_and_go_views import open_sit_and_go

pytestmark = pytest.mark.django_db


def page_of(client, tournament):
    response = client.get(reverse("tournament_results", args=[tournament.pk]))
    assert response.status_code == 200
    return response.content.decode()


def live_of(client, tournament):
    response = client.get(reverse("tournament_live", args=[tournament.pk]))
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    return response.json()


def test_a_tournament_taking_entries_shows_its_start_entry_and_prizes(
    client, make_player, scheduled
):
    """RULES.md 9: before the start, its time, the entry, the entrants so far, the pool and the
    prizes they make, and where late registration will close."""
    tournament = scheduled(name="Sunday", late_registration_levels=3, max_entrants=40)
    for _ in range(3):
        mtt_register(tournament_id=tournament.pk, user=make_player())
    client.force_login(make_player("viewer"))
    html = page_of(client, tournament)
    assert "Sunday" in html and "Registering" in html
    assert tournament.starts_at.strftime("%H:%M") in html
    assert "1,000 + 100" in html and "3,000" in html  # the pool of three entries
    assert "Late registration until the end of level 3" in html
    assert "seated at random when it starts" in html
    assert 'id="tournament-page"' in html and "js/tournament-page" in html

    live = live_of(client, tournament)
    t = live["tournament"]
    assert (t["status"], t["entrants"], t["max_entrants"], t["prize_pool"]) == (
        "registering",
        3,
        40,
        3_000,
    )
    assert live["tables"] == [] and live["finished"] == [] and live["hands"] == []
    assert [p["place"] for p in live["prizes"]] == [1, 2]
    assert sum(p["prize"] for p in live["prizes"]) == 3_000
    assert live["you"] == {"table_url": None} and live["now"] > 0


def test_a_running_tournament_shows_its_level_and_each_table_with_its_players_and_stacks(
    client, make_player, scheduled, clock
):
    """RULES.md 9: while it runs: the level and its blinds, the next one and when, the players
    left and the average stack, and every table with its players and their stacks, each table
    linking to its page so anyone signed in may watch. No card in the page or its JSON."""
    tournament = scheduled(seats=6, blind_schedule=[[10, 20, 0], [20, 40, 5]])
    players = [make_player(f"p{n}") for n in range(8)]
    for player in players:
        mtt_register(tournament_id=tournament.pk, user=player)
    clock.advance(61)
    clock.advance(11)  # the first hands are dealt
    tables = list(Table.objects.filter(tournament=tournament).order_by("id"))
    assert len(tables) == 2 and all(t.in_hand for t in tables)
    client.force_login(players[0])
    html = page_of(client, tournament)
    for table in tables:
        assert f'href="/tables/{table.pk}/"' in html
    for seat in Seat.objects.filter(table__tournament=tournament):
        assert seat.user.username in html
    assert html.count('<span class="num">1,000</span>') == 8
    assert "Level 1</b> · blinds 10/20" in html
    assert "Next: level 2 · 20/40 ante 5" in html and "data-level-ends-at" in html
    assert "hand in play" in html and "Take your seat" in html
    assert cards_in(html) == set()

    live = live_of(client, tournament)
    t = live["tournament"]
    assert (t["status"], t["players_left"], t["entrants"], t["tables"]) == ("running", 8, 8, 2)
    assert t["level"] == {"level": 1, "small_blind": 10, "big_blind": 20, "ante": 0}
    assert t["next_level"] == {"level": 2, "small_blind": 20, "big_blind": 40, "ante": 5}
    assert t["level_ends_at"] > live["now"] and t["average_stack"] == 1_000
    assert [table["id"] for table in live["tables"]] == [table.pk for table in tables]
    # In a hand each player's chips are what they have behind and have put in (the first
    # hand: the starting stack each), never the seat's 0 while the engine holds them.
    shown = {p["username"]: p["stack"] for table in live["tables"] for p in table["players"]}
    assert shown == {player.username: 1_000 for player in players}
    assert {(table["id"], p["username"]) for table in live["tables"] for p in table["players"]} == {
        (s.table_id, s.user.username) for s in Seat.objects.filter(table__tournament=tournament)
    }
    assert all(table["in_hand"] for table in live["tables"])
    assert live["tables"][0]["url"] == f"/tables/{tables[0].pk}/"
    mine = Seat.objects.get(user=players[0])
    assert live["you"] == {"table_url": f"/tables/{mine.table_id}/"}
    assert cards_in(json.dumps(live)) == set()
    # Anyone signed in may watch a table of it.
    client.force_login(make_player("watcher"))
    assert client.get(f"/tables/{tables[1].pk}/").status_code == 200
    check_invariants(tournament)


def test_hand_for_hand_shows_on_the_page(client, make_player, scheduled, clock):
    """RULES.md 9: the page says when the tables play hand for hand."""
    tournament = scheduled(seats=6, blind_schedule=[[10, 20, 0], [20, 40, 5]])
    for _ in range(3):
        mtt_register(tournament_id=tournament.pk, user=make_player())
    clock.advance(61)
    Tournament.objects.filter(pk=tournament.pk).update(hand_for_hand=True)
    client.force_login(make_player("viewer"))
    assert "Hand for hand" in page_of(client, tournament)
    assert live_of(client, tournament)["tournament"]["hand_for_hand"] is True


def test_a_finished_tournament_shows_places_prizes_and_the_hands_each_may_open(
    client, make_player, scheduled, clock, admin_user
):
    """RULES.md 9: once over, every player's place and prize (the pool paid out), and its hands,
    each linking to its page for the players dealt into it and for staff."""
    tournament = scheduled(seats=3, starting_stack=200, late_registration_levels=0)
    players = [make_player(f"p{n}") for n in range(4)]
    for player in players:
        mtt_register(tournament_id=tournament.pk, user=player)
    clock.advance(61)
    play_to_the_end(tournament, clock, seed=3)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    winner = tournament.entries.get(place=1)
    client.force_login(winner.user)
    html = page_of(client, tournament)
    live = live_of(client, tournament)
    places = [row["place"] for row in live["finished"]]
    # Players out in one round with equal chips share a place (RULES.md 8): 1, 2, 2, 4 may be.
    assert places[0] == 1 and places == sorted(places) and len(places) == 4
    assert all(place in (index + 1, places[index - 1]) for index, place in enumerate(places))
    assert sum(row["prize"] for row in live["finished"]) == tournament.prize_pool == 4_000
    assert live["finished"][0]["username"] == winner.user.username
    assert "winner-row" in html and "Finished" in html and "(you)" in html
    played = HandRecord.objects.filter(table__tournament=tournament, ended_at__isnull=False)
    assert live["hands_total"] == played.count()
    shown = live["hands"]
    assert len(shown) == min(HANDS_SHOWN, played.count())
    assert [h["id"] for h in shown] == list(
        played.order_by("-ended_at", "-id").values_list("pk", flat=True)[:HANDS_SHOWN]
    )
    theirs = set(played.filter(participants__user=winner.user).values_list("pk", flat=True))
    assert {h["id"] for h in shown if h["yours"]} == theirs & {h["id"] for h in shown}
    linked = next(h["id"] for h in shown if h["yours"])
    assert f'href="/hands/{linked}/"' in html
    # Someone who played none of them sees the list without links; staff open every one.
    client.force_login(make_player("outsider"))
    assert not any(h["yours"] for h in live_of(client, tournament)["hands"])
    client.force_login(admin_user)
    assert all(h["yours"] for h in live_of(client, tournament)["hands"])
    assert live["tables"] == [] or all(
        t["id"]
        in set(Table.objects.exclude(status=TableStatus.CLOSED).values_list("pk", flat=True))
        for t in live["tables"]
    )
    assert cards_in(json.dumps(live)) == set()


def test_the_page_is_read_in_the_same_queries_however_many_tables_and_players(
    make_player, scheduled, clock
):
    """The page's reads are bounded: no query per table or per player."""

    def queries_for(entrants):
        tournament = scheduled(seats=3)
        for _ in range(entrants):
            mtt_register(tournament_id=tournament.pk, user=make_player())
        clock.advance(61)
        viewer = make_player()
        with CaptureQueriesContext(connection) as queries:
            page = tournament_page_data(tournament.pk, viewer)
        assert sum(len(t["players"]) for t in page["tables"]) == entrants
        return len(queries)

    small, large = queries_for(2), queries_for(12)
    assert small == large <= 10


def test_a_missing_tournament_is_a_404_and_a_sit_and_go_has_no_live_json(client, make_player):
    client.force_login(make_player())
    assert client.get(reverse("tournament_results", args=[999_999])).status_code == 404
    assert client.get(reverse("tournament_live", args=[999_999])).status_code == 404
    sit_and_go = open_sit_and_go()
    assert client.get(reverse("tournament_live", args=[sit_and_go.pk])).status_code == 404
    # The Sit & Go keeps its results page.
    assert client.get(reverse("tournament_results", args=[sit_and_go.pk])).status_code == 200


def test_signed_out_visitors_are_sent_to_sign_in(scheduled):
    tournament = scheduled()
    for name in ("tournament_results", "tournament_live"):
        answer = Client().get(reverse(name, args=[tournament.pk]))
        assert answer.status_code == 302 and reverse("login") in answer["Location"]

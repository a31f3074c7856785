"""The scheduled tournaments' HTTP edge in the lobby (RULES.md 9): registering before the start,
late and again after a knock-out, unregistering, every refusal a coded 400 that changes nothing,
the endpoints' guards, and the lobby page's list with its words and buttons, bounded."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from casino.accounts.models import LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from holdem.models import Seat, Tournament, TournamentKind, TournamentStatus
from holdem.selectors.lobby_page import PAGE_SIZE, sit_and_gos_page, tournaments_page
from holdem.services import table_sit
from holdem.services.multi_table import mtt_register
from holdem.services.tournaments import tournament_register, tournament_unregister
from tests.holdem.conftest import chips_everywhere
from tests.holdem.test_multi_table import one_player_out
from tests.lobby.test_sit_and_go_views import open_sit_and_go

pytestmark = pytest.mark.django_db


def post(client, name, tournament_id):
    return client.post(reverse(name, args=[tournament_id]))


def refused(client, name, tournament_id, code):
    answer = post(client, name, tournament_id)
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == code and error["message"], error
    return error


def served(html, element_id):
    return json.loads(html.split(f'id="{element_id}" type="application/json">')[1].split("<")[0])


def row_of(html, tournament_id):
    return html.split(f'data-tournament-id="{tournament_id}"')[1].split("</tr>")[0]


def test_registering_takes_buy_in_and_fee_and_unregistering_gives_both_back(
    client, make_player, scheduled
):
    """RULES.md 9 (as 8): before the start the buy-in and the fee leave the wallet, and come back
    on unregistering. Each answer is the tournament as the lobby lists it, and the player's part."""
    tournament = scheduled(max_entrants=10)
    ann = make_player("ann")
    before = wallet_balance(user=ann)
    client.force_login(ann)

    joined = post(client, "tournament_register", tournament.pk)
    assert joined.status_code == 200, joined.content
    assert joined["Cache-Control"] == "no-store"
    body = joined.json()
    assert body["tournament"]["id"] == tournament.pk and body["tournament"]["registered"] == 1
    assert body["tournament"]["kind"] == "scheduled" and body["tournament"]["prize_pool"] == 1_000
    assert body["you"] == {"entries": 1, "entered": True, "table_url": None}
    assert wallet_balance(user=ann) == before - 1_100

    left = post(client, "tournament_unregister", tournament.pk)
    assert left.status_code == 200, left.content
    assert left.json()["tournament"]["registered"] == 0
    assert left.json()["you"] == {"entries": 0, "entered": False, "table_url": None}
    assert wallet_balance(user=ann) == before
    chips_everywhere()


def test_a_late_entrant_is_seated_at_once_and_told_where(client, make_player, scheduled, clock):
    """RULES.md 9: while late registration is open a new entrant gets the starting stack and a
    seat at once; the answer links the seat. Unregistering is over once it has started."""
    tournament = scheduled(seats=6, late_registration_levels=2)
    for _ in range(3):
        mtt_register(tournament_id=tournament.pk, user=make_player())
    clock.advance(61)
    late = make_player("late")
    client.force_login(late)
    joined = post(client, "tournament_register", tournament.pk)
    assert joined.status_code == 200, joined.content
    body = joined.json()
    seat = Seat.objects.get(user=late)
    assert body["you"] == {"entries": 1, "entered": True, "table_url": f"/tables/{seat.table_id}/"}
    assert body["tournament"]["status"] == "running"
    assert body["tournament"]["entrants"] == 4 and body["tournament"]["players_left"] == 4
    assert body["tournament"]["registration_open"] is True
    balance = wallet_balance(user=late)
    error = refused(client, "tournament_unregister", tournament.pk, "tournament_started")
    assert "tournament has started" in error["message"]
    assert wallet_balance(user=late) == balance and Seat.objects.filter(user=late).exists()
    chips_everywhere()


def test_a_player_knocked_out_re_enters_from_the_lobby_while_registration_is_open(
    client, make_player, scheduled, clock
):
    """RULES.md 9: a knocked-out player is offered Re-enter while registration is open and a
    re-entry remains; the re-entry is a new entry with a new stack. Past the last re-entry the
    row offers nothing and the endpoint refuses."""
    players = [make_player() for _ in range(3)]
    tournament = scheduled(seats=3, re_entries=1, late_registration_levels=3)
    for player in players:
        mtt_register(tournament_id=tournament.pk, user=player)
    clock.advance(61)
    out = one_player_out(tournament, clock)
    client.force_login(out.user)
    row = row_of(client.get(reverse("lobby")).content.decode(), tournament.pk)
    assert ">Re-enter</button>" in row and ">Out<" in row
    balance = wallet_balance(user=out.user)
    again = post(client, "tournament_register", tournament.pk)
    assert again.status_code == 200, again.content
    assert again.json()["you"]["entries"] == 2 and again.json()["you"]["entered"] is True
    assert wallet_balance(user=out.user) == balance - 1_100
    assert Seat.objects.get(user=out.user).stack == 1_000
    row = row_of(client.get(reverse("lobby")).content.decode(), tournament.pk)
    assert "Re-enter" not in row and "Take your seat" in row and "You play" in row
    chips_everywhere()


def test_every_refusal_is_a_coded_400_and_changes_nothing(
    client, make_player, scheduled, clock, room
):
    """RULES.md 9: not twice, one tournament at a time, not while seated in a room, not past the
    cap, not without the chips, not a Sit & Go through this door, not after registration
    closed, no re-entry where none is allowed; unregistering needs a registration."""
    tournament = scheduled(max_entrants=2)
    other = scheduled()
    ann = make_player("ann")
    client.force_login(ann)
    refused(client, "tournament_unregister", tournament.pk, "not_registered")
    refused(client, "tournament_register", 999_999, "no_such_tournament")
    refused(client, "tournament_unregister", 999_999, "no_such_tournament")
    sit_and_go = open_sit_and_go()
    refused(client, "tournament_register", sit_and_go.pk, "not_scheduled")
    tournament_register(tournament_id=sit_and_go.pk, user=ann)
    refused(client, "tournament_unregister", sit_and_go.pk, "not_scheduled")
    tournament_unregister(tournament_id=sit_and_go.pk, user=ann)
    assert post(client, "tournament_register", tournament.pk).status_code == 200
    balance = wallet_balance(user=ann)
    refused(client, "tournament_register", tournament.pk, "already_registered")
    refused(client, "tournament_register", other.pk, "registered_elsewhere")
    assert wallet_balance(user=ann) == balance
    assert list(tournament.entries.values_list("user_id", flat=True)) == [ann.pk]
    assert not other.entries.exists() and not sit_and_go.entries.exists()

    # A seat in a room (RULES.md 2: one room at a time).
    seated = make_player("bea")
    table_sit(table_id=room("nl50").pk, user=seated, seat=0, buy_in=5_000)
    client.force_login(seated)
    refused(client, "tournament_register", other.pk, "seated_elsewhere")

    # Short of the buy-in and the fee together.
    broke = make_player("cal")
    wallet_adjust(
        user=broke,
        amount=1_099 - wallet_balance(user=broke),
        kind=LedgerKind.ADMIN_ADJUSTMENT,
        reason="a short wallet for the test",
    )
    client.force_login(broke)
    refused(client, "tournament_register", other.pk, "insufficient_chips")
    assert wallet_balance(user=broke) == 1_099

    # The cap: two entries taken.
    mtt_register(tournament_id=tournament.pk, user=make_player())
    client.force_login(make_player("dee"))
    refused(client, "tournament_register", tournament.pk, "tournament_full")
    assert tournament.entries.count() == 2

    # Started with no late registration, then a knock-out where no re-entry is allowed.
    closed = scheduled(late_registration_levels=0, seats=2)
    first, second = make_player(), make_player()
    for player in (first, second):
        mtt_register(tournament_id=closed.pk, user=player)
    clock.advance(61)
    client.force_login(make_player("eve"))
    refused(client, "tournament_register", closed.pk, "registration_closed")
    out = one_player_out(closed, clock)
    client.force_login(out.user)
    balance = wallet_balance(user=out.user)
    refused(client, "tournament_register", closed.pk, "registration_closed")
    assert wallet_balance(user=out.user) == balance
    assert closed.entries.filter(user=out.user).count() == 1
    chips_everywhere()


def test_the_endpoints_want_a_signed_in_post_with_its_csrf_token(make_player, scheduled):
    tournament = scheduled()
    player = make_player("ann")
    answer = post(Client(), "tournament_register", tournament.pk)
    assert answer.status_code == 302 and reverse("login") in answer["Location"]

    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(player)
    assert guarded.get(reverse("tournament_register", args=[tournament.pk])).status_code == 405
    assert post(guarded, "tournament_register", tournament.pk).status_code == 403
    assert post(guarded, "tournament_unregister", tournament.pk).status_code == 403
    assert not tournament.entries.exists()
    page = guarded.get(reverse("lobby"))
    token = page.cookies["csrftoken"].value
    answer = guarded.post(
        reverse("tournament_register", args=[tournament.pk]), HTTP_X_CSRFTOKEN=token
    )
    assert answer.status_code == 200, answer.content


def test_the_lobby_lists_the_scheduled_tournaments_with_their_words_and_buttons(
    client, make_player, scheduled, clock
):
    """RULES.md 9: each scheduled tournament's start, entrants, buy-in + fee, prize pool and late
    registration, with Register or Unregister; a running one its level, players left and Watch;
    one finished in the last hour its results; older ones and the Sit & Gos are not in it."""
    mine = scheduled(name="Mine", late_registration_levels=3, re_entries=2, max_entrants=100)
    theirs = scheduled(name="Theirs", starts_at=clock.now + timedelta(hours=3), buy_in=500, fee=0)
    running = scheduled(name="Running", starts_at=clock.now + timedelta(seconds=5))
    for _ in range(2):
        mtt_register(tournament_id=running.pk, user=make_player())
    clock.advance(6)
    ended = scheduled(name="Ended")
    Tournament.objects.filter(pk=ended.pk).update(
        status=TournamentStatus.FINISHED, finished_at=clock.now - timedelta(minutes=30)
    )
    old = scheduled(name="Long gone")
    Tournament.objects.filter(pk=old.pk).update(
        status=TournamentStatus.FINISHED, finished_at=clock.now - timedelta(hours=2)
    )
    sit_and_go = open_sit_and_go()
    ann = make_player("ann")
    mtt_register(tournament_id=mine.pk, user=ann)
    client.force_login(ann)

    html = client.get(reverse("lobby")).content.decode()
    listed = served(html, "lobby-tournaments")
    assert [t["id"] for t in listed] == [running.pk, mine.pk, theirs.pk, ended.pk]
    assert {t["kind"] for t in listed} == {"scheduled"}
    by_id = {t["id"]: t for t in listed}
    assert by_id[mine.pk]["you"] == {"entries": 1, "entered": True, "table_url": None}
    assert by_id[theirs.pk]["you"]["entries"] == 0
    assert served(html, "lobby-your-entries") == {
        str(mine.pk): {"entries": 1, "entered": True, "table_url": None}
    }
    assert sit_and_go.pk not in {t["id"] for t in listed}
    assert {s["id"] for s in served(html, "lobby-sit-and-gos")} == {sit_and_go.pk}

    row = row_of(html, mine.pk)
    assert "Unregister" in row and "Registered" in row and ">Register<" not in row
    assert "1,000 + 100" in row and "Late registration until the end of level 3" in row
    assert "2 re-entries" in row and "/100" in row
    assert mine.starts_at.strftime("%H:%M") in row and 'href="/tournaments/' in row
    row = row_of(html, theirs.pk)
    assert ">Register</button>" in row and "Unregister" not in row and "500" in row
    row = row_of(html, running.pk)
    assert "Level 1 · 10/20" in row or "Level 1 ·" in row
    assert "left of 2" in row and ">Watch<" in row
    assert "Late registration open until the end of level 4" in row
    row = row_of(html, ended.pk)
    assert ">Results<" in row and "Register" not in row
    assert 'id="tournaments"' in html and "Tournaments only" in html


def test_the_lists_are_bounded_and_read_in_a_fixed_number_of_queries(scheduled, clock):
    """The lobby's list holds the first PAGE_SIZE (the first to start first) and how many in all,
    read in the same few queries however many there are."""
    made = [
        scheduled(name=f"T{n}", starts_at=clock.now + timedelta(minutes=n + 1))
        for n in range(PAGE_SIZE + 3)
    ]
    with CaptureQueriesContext(connection) as queries:
        listed = tournaments_page()
    assert len(listed["tournaments"]) == PAGE_SIZE and listed["total"] == PAGE_SIZE + 3
    assert [t["id"] for t in listed["tournaments"]] == [t.pk for t in made[:PAGE_SIZE]]
    assert len(queries) <= 5, [q["sql"] for q in queries]
    assert sit_and_gos_page()["total"] == 0  # not Sit & Gos


def test_a_running_tournaments_summary_counts_its_players_and_tables(make_player, scheduled, clock):
    """RULES.md 9: the lobby's figures of a running one: entrants, players left, tables, the
    prize pool and places paid, the level in force and its end."""
    tournament = scheduled(seats=3)
    for _ in range(5):
        mtt_register(tournament_id=tournament.pk, user=make_player())
    clock.advance(61)
    (listed,) = tournaments_page()["tournaments"]
    assert (listed["entrants"], listed["players_left"], listed["tables"]) == (5, 5, 2)
    assert listed["prize_pool"] == 5_000 and listed["places_paid"] == 2
    assert listed["level"]["level"] == 1 and listed["level_ends_at"] > 0
    assert listed["starts_at"] == int(tournament.starts_at.timestamp() * 1000)
    assert timezone.now() >= tournament.starts_at
    assert Tournament.objects.filter(kind=TournamentKind.SCHEDULED).count() == 1

"""The Sit & Go's HTTP edge (RULES.md 8): registering and unregistering from the lobby, the lobby
page's list, the results page, and the links to it from the profile, the statistics and a hand."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from casino.accounts.selectors import wallet_balance
from holdem.models import HandRecord, SitGoTemplate
from holdem.presets import SIT_AND_GO_PRESETS
from holdem.services import table_sit
from holdem.services.tournaments import sit_and_go_open, tournament_register
from tests.holdem.conftest import play_out

pytestmark = pytest.mark.django_db


def open_sit_and_go(preset="sng6"):
    """A Sit & Go taking entries, from a template of the shipped preset, opened as the site does."""
    template = SitGoTemplate.objects.filter(preset=preset).first()
    if template is None:
        template = SitGoTemplate.objects.create(preset=preset, **SIT_AND_GO_PRESETS[preset])
    return sit_and_go_open(template)


def post(client, name, tournament_id):
    return client.post(reverse(name, args=[tournament_id]))


def test_registering_takes_the_buy_in_and_the_fee_and_answers_with_the_sit_and_go(
    postgres, client, make_player
):
    """RULES.md 8: registration takes buy-in and fee from the wallet; unregistering before the
    start gives both back. Each answer is the tournament as the lobby lists it."""
    tournament = open_sit_and_go()
    player = make_player("ann")
    before = wallet_balance(user=player)
    client.force_login(player)

    joined = post(client, "sit_and_go_register", tournament.pk)
    assert joined.status_code == 200, joined.content
    assert joined["Cache-Control"] == "no-store"
    listed = joined.json()["sit_and_go"]
    assert listed["id"] == tournament.pk and listed["status"] == "registering"
    assert listed["players"] == ["ann"] and listed["registered"] == 1
    assert listed["results_url"] == reverse("tournament_results", args=[tournament.pk])
    assert wallet_balance(user=player) == before - 1_000 - 100

    left = post(client, "sit_and_go_unregister", tournament.pk)
    assert left.status_code == 200, left.content
    assert left.json()["sit_and_go"]["players"] == []
    assert wallet_balance(user=player) == before


def test_refusals_are_a_coded_400_and_change_nothing(postgres, client, make_player, room):
    """RULES.md 8: one Sit & Go at a time, never while holding a seat, never twice, and only
    with the chips for it; each refusal names its code."""
    tournament = open_sit_and_go()
    other = open_sit_and_go("hu_hyper")
    player = make_player("ann")
    client.force_login(player)

    def refused(name, tournament_id, code):
        answer = post(client, name, tournament_id)
        assert answer.status_code == 400, answer.content
        error = answer.json()["error"]
        assert error["code"] == code and error["message"]
        return answer

    refused("sit_and_go_unregister", tournament.pk, "not_registered")
    refused("sit_and_go_register", 999_999, "no_such_tournament")
    assert post(client, "sit_and_go_register", tournament.pk).status_code == 200
    balance = wallet_balance(user=player)
    refused("sit_and_go_register", tournament.pk, "already_registered")
    refused("sit_and_go_register", other.pk, "registered_elsewhere")
    assert wallet_balance(user=player) == balance
    assert [e.user_id for e in tournament.entries.all()] == [player.pk]
    assert not other.entries.exists()

    # A player with a seat in a room may not register (RULES.md 2: one room at a time).
    seated = make_player("bea")
    table = room("nl50")
    table_sit(table_id=table.pk, user=seated, seat=0, buy_in=5_000)
    client.force_login(seated)
    refused("sit_and_go_register", tournament.pk, "seated_elsewhere")

    # Short of the buy-in and the fee together.
    broke = make_player("cal")
    broke.wallet.balance = 1_099
    broke.wallet.save(update_fields=["balance"])
    client.force_login(broke)
    refused("sit_and_go_register", tournament.pk, "insufficient_chips")
    assert wallet_balance(user=broke) == 1_099


def test_the_endpoints_want_a_signed_in_post_with_its_csrf_token(postgres, make_player):
    tournament = open_sit_and_go()
    player = make_player("ann")
    anonymous = Client()
    answer = post(anonymous, "sit_and_go_register", tournament.pk)
    assert answer.status_code == 302 and reverse("login") in answer["Location"]

    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(player)
    assert guarded.get(reverse("sit_and_go_register", args=[tournament.pk])).status_code == 405
    assert post(guarded, "sit_and_go_register", tournament.pk).status_code == 403
    assert not tournament.entries.exists()
    # With the token the lobby page holds (#csrf-holder), the same POST goes through.
    page = guarded.get(reverse("lobby"))
    token = page.cookies["csrftoken"].value
    answer = guarded.post(
        reverse("sit_and_go_register", args=[tournament.pk]), HTTP_X_CSRFTOKEN=token
    )
    assert answer.status_code == 200, answer.content


def test_the_lobby_page_lists_the_sit_and_gos_with_their_buttons(postgres, client, make_player):
    """RULES.md 8: the lobby shows each open Sit & Go's seats, entry, stack, speed and prizes;
    Unregister only on one's own registration."""
    mine = open_sit_and_go()
    theirs = open_sit_and_go("sng9_turbo")
    ann, bob = make_player("ann"), make_player("bob")
    tournament_register(tournament_id=mine.pk, user=ann)
    tournament_register(tournament_id=theirs.pk, user=bob)
    client.force_login(ann)

    page = client.get(reverse("lobby"))
    assert page.status_code == 200
    html = page.content.decode()
    served = json.loads(
        html.split('id="lobby-sit-and-gos" type="application/json">')[1].split("<")[0]
    )
    by_id = {s["id"]: s for s in served}
    assert by_id[mine.pk]["players"] == ["ann"] and by_id[theirs.pk]["players"] == ["bob"]
    assert by_id[theirs.pk]["level_seconds"] == 300
    row = html.split(f'data-sit-and-go-id="{mine.pk}"')[1].split("</tr>")[0]
    assert "Unregister" in row and "Register</button>" not in row.replace("Unregister", "")
    assert "1,000 + 100" in row and "10 min" in row and "1,500" in row
    other_row = html.split(f'data-sit-and-go-id="{theirs.pk}"')[1].split("</tr>")[0]
    assert "Unregister" not in other_row and "Register" in other_row
    assert "5 min" in other_row and "500 + 50" in other_row


def test_the_results_page_shows_places_prizes_and_the_hands_each_may_open(
    postgres, client, make_player
):
    """RULES.md 8: each tournament has a results page with the places, the prizes and its hands;
    a hand links for those dealt into it (its own page refuses the others)."""
    tournament = open_sit_and_go("hu_hyper")
    ann, bob, watcher = make_player("ann"), make_player("bob"), make_player("cy")
    tournament_register(tournament_id=tournament.pk, user=ann)
    client.force_login(bob)
    # The last seat taken starts it: the answer already links the table.
    started = post(client, "sit_and_go_register", tournament.pk).json()["sit_and_go"]
    tournament.refresh_from_db()
    assert (
        started["status"] == "running" and started["table_url"] == f"/tables/{tournament.table_id}/"
    )

    client.force_login(watcher)
    late = post(client, "sit_and_go_register", tournament.pk)
    assert late.status_code == 400 and late.json()["error"]["code"] == "tournament_started"
    page = client.get(reverse("tournament_results", args=[tournament.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Heads-up Hyper" in html and "ann" in html and "bob" in html
    assert "2,000 + 100" in html and "4,000" in html  # the pool
    assert "Still in" in html and f'href="/tables/{tournament.table_id}/"' in html
    # The lobby row of a running one links its table and its results.
    lobby = client.get(reverse("lobby")).content.decode()
    row = lobby.split(f'data-sit-and-go-id="{tournament.pk}"')[1].split("</tr>")[0]
    assert ">Watch<" in row and reverse("tournament_results", args=[tournament.pk]) in row
    client.force_login(ann)
    lobby = client.get(reverse("lobby")).content.decode()
    assert (
        "Take your seat"
        in lobby.split(f'data-sit-and-go-id="{tournament.pk}"')[1].split("</tr>")[0]
    )

    assert client.get(reverse("tournament_results", args=[999_999])).status_code == 404
    # Signed out: to the sign-in page, as every page of the site.
    assert Client().get(reverse("tournament_results", args=[tournament.pk])).status_code == 302


def test_a_tournament_hand_links_its_results_page(postgres, client, seated, clock):
    """RULES.md 8: every hand of a tournament links to the tournament's results page (its
    record's tournament header names it); a cash hand has no such link."""
    tournament = open_sit_and_go()
    table, users = seated("nl50", seats=(0, 1))
    for _ in range(2):
        clock.advance(31)
        play_out(table, users)
    first, second = HandRecord.objects.filter(table=table).order_by("number")
    first.tournament = {"id": tournament.pk, "buy_in": 1_000, "fee": 100, "level": 1}
    first.save(update_fields=["tournament"])
    client.force_login(users[0])
    results = reverse("tournament_results", args=[tournament.pk])
    page = client.get(reverse("hand_detail", args=[first.pk]))
    assert page.status_code == 200
    assert results in page.content.decode()
    cash = client.get(reverse("hand_detail", args=[second.pk])).content.decode()
    assert "Tournament results" not in cash and results not in cash


def test_the_profile_and_the_statistics_show_the_players_tournaments(postgres, client, make_player):
    """RULES.md 8: the profile lists the player's tournaments, each linking its results; the
    statistics count them."""
    tournament = open_sit_and_go()
    ann = make_player("ann")
    tournament_register(tournament_id=tournament.pk, user=ann)
    client.force_login(ann)
    profile = client.get(reverse("profile")).content.decode()
    assert 'id="your-tournaments"' in profile
    assert reverse("tournament_results", args=[tournament.pk]) in profile

    stats = client.get(reverse("player_stats"))
    assert stats.status_code == 200
    assert "Sit &amp; Go tournaments" in stats.content.decode()
    assert set(stats.context["tournaments"]) >= {"played", "prizes_won", "in_the_money", "wins"}

    # Someone with none yet is pointed at the lobby's list.
    client.force_login(make_player("bob"))
    assert "Register for a Sit &amp; Go" in client.get(reverse("profile")).content.decode()

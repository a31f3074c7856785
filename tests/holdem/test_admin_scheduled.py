"""Scheduled multi-table tournaments in the admin (RULES.md 9): staff schedule one with a real
POST through the service's checks (the lobby hears of it), a refused schedule shows its errors
and saves nothing, the figures in play are read-only once it runs, and cancelling before the
start refunds every entry. No card on any of its pages."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from casino.accounts.selectors import wallet_balance
from casino.errors import DomainError
from holdem.models import (
    ScheduledTournament,
    Table,
    Tournament,
    TournamentKind,
    TournamentStatus,
)
from holdem.realtime.broadcast import LOBBY_GROUP
from holdem.services import deadlines_fire_due
from holdem.services.multi_table import mtt_register, tournament_schedule
from holdem.services.scheduling import scheduled_tournament_update
from holdem.services.tournaments import sit_and_go_presets_seed
from tests.holdem.conftest import chips_everywhere, clock_ran_until
from tests.holdem.test_admin_privacy import cards_in

pytestmark = pytest.mark.django_db

ADD = "admin:holdem_scheduledtournament_add"
CHANGELIST = "admin:holdem_scheduledtournament_changelist"


def change_url(tournament):
    return reverse("admin:holdem_scheduledtournament_change", args=[tournament.pk])


@pytest.fixture
def lobby_frames(monkeypatch):
    """The frames lobby_announce queues for the lobby group."""
    frames = []

    def capture(messages):
        frames.extend(json.loads(m["text"]) for group, m in messages if group == LOBBY_GROUP)

    monkeypatch.setattr("holdem.services.tournaments.send_on_commit", capture)
    return frames


def schedule_form(**overrides):
    """The add page's fields as a browser posts them (the start in two inputs)."""
    starts = timezone.now() + timedelta(hours=2)
    data = {
        "name": "Sunday Million",
        "starts_at_0": starts.strftime("%Y-%m-%d"),
        "starts_at_1": starts.strftime("%H:%M:%S"),
        "buy_in": "1000",
        "fee": "100",
        "seats": "9",
        "starting_stack": "3000",
        "level_seconds": "600",
        "structure": "no_limit",
        "blind_schedule": "[[10, 20, 0], [20, 40, 5]]",
        "late_registration_levels": "4",
        "re_entries": "1",
        "max_entrants": "500",
        "repeat_daily": "on",
        "turn_seconds": "30",
        "time_bank_seconds": "20",
        "auto_muck": "on",
        # The entries inline, empty on a new one.
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def test_staff_schedule_a_tournament_through_the_service_and_the_lobby_hears_of_it(
    admin_client, lobby_frames
):
    """RULES.md 9: the options staff set (start, entry, seats, stack, levels, late registration,
    re-entry, the cap, daily repeat, the clocks) are the tournament's, it is a scheduled one
    taking entries, and the lobby's `tournament` frame announces it."""
    page = admin_client.get(reverse(ADD))
    assert page.status_code == 200
    response = admin_client.post(reverse(ADD), schedule_form())
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(name="Sunday Million")
    assert tournament.kind == TournamentKind.SCHEDULED
    assert tournament.status == TournamentStatus.REGISTERING
    assert (tournament.buy_in, tournament.fee, tournament.seats) == (1_000, 100, 9)
    assert (tournament.starting_stack, tournament.level_seconds) == (3_000, 600)
    assert tournament.blind_schedule == [[10, 20, 0], [20, 40, 5]]
    assert (tournament.late_registration_levels, tournament.re_entries) == (4, 1)
    assert (tournament.max_entrants, tournament.repeat_daily) == (500, True)
    assert (tournament.turn_seconds, tournament.time_bank_seconds, tournament.auto_muck) == (
        30,
        20,
        True,
    )
    assert tournament.payouts == []  # the site's default payout table
    (frame,) = [f for f in lobby_frames if f["type"] == "tournament"]
    assert frame["tournament"]["id"] == tournament.pk
    assert frame["tournament"]["status"] == "registering"
    assert frame["tournament"]["registration_open"] is True
    # Its own list, apart from the Sit & Gos'.
    listed = admin_client.get(reverse(CHANGELIST)).content.decode()
    assert "Sunday Million" in listed
    sit_and_gos = admin_client.get(reverse("admin:holdem_tournament_changelist")).content
    assert b"Sunday Million" not in sit_and_gos


@pytest.mark.parametrize(
    ("overrides", "field", "said"),
    [
        ({"seats": "11"}, None, "a table has 2 to 10 seats"),
        ({"max_entrants": "1"}, None, "room for two entrants or more"),
        ({"starting_stack": "1"}, None, "must be positive"),
        ({"blind_schedule": "[[20, 10, 0]]"}, "blind_schedule", "small blind &lt;= big blind"),
        ({"blind_schedule": '{"small": 10}'}, "blind_schedule", "a list of [small blind"),
        ({"blind_schedule": "[[10, 20]]"}, "blind_schedule", "(small blind, big blind, ante)"),
        ({"starts_at_0": "2001-01-01"}, "starts_at", "still to come"),
        ({"starts_at_0": None, "starts_at_1": None}, "starts_at", "needs a start time"),
        ({"buy_in": "-5"}, "buy_in", "greater than or equal to 0"),
    ],
)
def test_a_refused_schedule_shows_why_and_saves_nothing(
    admin_client, lobby_frames, overrides, field, said
):
    """RULES.md 9: figures that cannot be played are refused with the service's words, on the
    field at fault where there is one; nothing is saved and the lobby hears nothing."""
    response = admin_client.post(reverse(ADD), schedule_form(**overrides))
    assert response.status_code == 200
    page = response.content.decode()
    assert said.lower() in page.lower(), page[:4000]
    errors = response.context["adminform"].form.errors
    assert (field in errors) if field else ("__all__" in errors)
    assert not Tournament.objects.exists()
    assert lobby_frames == []


def test_an_empty_blind_schedule_plays_the_default_levels(admin_client):
    response = admin_client.post(reverse(ADD), schedule_form(blind_schedule=""))
    assert response.status_code == 302
    assert Tournament.objects.get().blind_schedule == []


def test_before_the_start_every_figure_changes_through_the_checks(
    admin_client, clock, lobby_frames
):
    """RULES.md 9: before the start staff may change any figure; the change is checked as the
    schedule was (a refusal saves nothing) and the lobby hears of it."""
    tournament = tournament_schedule(
        name="Nightly", starts_at=clock.now + timedelta(hours=1), buy_in=500
    )
    page = admin_client.get(change_url(tournament)).content.decode()
    assert 'name="buy_in"' in page and 'name="seats"' in page
    lobby_frames.clear()
    form = schedule_form(name="Nightly", buy_in="700", seats="6")
    form["starts_at_0"] = tournament.starts_at.strftime("%Y-%m-%d")
    form["starts_at_1"] = tournament.starts_at.strftime("%H:%M:%S")
    assert admin_client.post(change_url(tournament), form).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.buy_in, tournament.seats) == (700, 6)
    assert [f["tournament"]["buy_in"] for f in lobby_frames] == [700]
    refused = admin_client.post(change_url(tournament), {**form, "seats": "1"})
    assert refused.status_code == 200
    assert "a table has 2 to 10 seats" in refused.content.decode().lower()
    tournament.refresh_from_db()
    assert tournament.seats == 6


def test_once_it_runs_only_the_name_and_the_entry_limits_change(admin_client, clock, make_player):
    """RULES.md 9: its tables, pool and clock were made from the figures: once it runs they are
    read-only on the page and refused by the service; the name, the cap and the re-entries
    may still change. Its tables link to the rooms admin and to the table to watch."""
    tournament = tournament_schedule(
        name="Turbo", starts_at=clock.now + timedelta(seconds=30), buy_in=100, seats=6
    )
    for _ in range(3):
        mtt_register(tournament_id=tournament.pk, user=make_player())
    clock.advance(31)
    clock.advance(11)  # the first hand is dealt
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    table = Table.objects.get(tournament=tournament)
    assert table.in_hand
    response = admin_client.get(change_url(tournament))
    page = response.content.decode()
    assert 'name="name"' in page and 'name="max_entrants"' in page and 'name="re_entries"' in page
    for frozen in ("buy_in", "seats", "starting_stack", "blind_schedule", "starts_at_0"):
        assert f'name="{frozen}"' not in page
    assert reverse("table", args=[table.pk]) in page
    assert reverse("admin:holdem_table_change", args=[table.pk]) in page
    assert cards_in(page) == set()  # no card, with a hand about to be dealt

    form = {
        "name": "Turbo (late)",
        "max_entrants": "50",
        "re_entries": "2",
        "entries-TOTAL_FORMS": "3",
        "entries-INITIAL_FORMS": "3",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    for n, entry in enumerate(tournament.entries.order_by("place", "registered_at", "id")):
        form[f"entries-{n}-id"] = str(entry.pk)
        form[f"entries-{n}-tournament"] = str(tournament.pk)
    response = admin_client.post(change_url(tournament), form)
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert (tournament.name, tournament.max_entrants, tournament.re_entries) == (
        "Turbo (late)",
        50,
        2,
    )
    with pytest.raises(DomainError) as refused:
        scheduled_tournament_update(tournament_id=tournament.pk, changes={"buy_in": 5})
    assert refused.value.code == "tournament_started"
    tournament.refresh_from_db()
    assert tournament.buy_in == 100
    chips_everywhere()


def test_staff_cancel_before_the_start_and_every_entry_is_refunded(
    admin_client, clock, make_player, lobby_frames
):
    """RULES.md 9 (as 8): cancelling before the start gives each entrant the buy-in and the fee
    back; a running one cannot be cancelled (its chips are in play)."""
    waiting = tournament_schedule(
        name="Cancelled", starts_at=clock.now + timedelta(hours=1), buy_in=300, fee=30
    )
    running = tournament_schedule(
        name="Running", starts_at=clock.now + timedelta(seconds=10), buy_in=300
    )
    players = [make_player() for _ in range(4)]
    before = {p.pk: wallet_balance(user=p) for p in players}
    for player in players[:2]:
        mtt_register(tournament_id=waiting.pk, user=player)
    for player in players[2:]:
        mtt_register(tournament_id=running.pk, user=player)
    clock.advance(11)
    assert wallet_balance(user=players[0]) == before[players[0].pk] - 330
    lobby_frames.clear()

    response = admin_client.post(
        reverse(CHANGELIST),
        {"action": "cancel_tournaments", "_selected_action": [waiting.pk, running.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "cancelled, entries refunded" in page
    assert "only a tournament that has not started can be cancelled" in page
    waiting.refresh_from_db()
    running.refresh_from_db()
    assert waiting.status == TournamentStatus.CANCELLED and not waiting.entries.exists()
    assert running.status == TournamentStatus.RUNNING
    for player in players[:2]:
        assert wallet_balance(user=player) == before[player.pk]
    assert [f["tournament"]["status"] for f in lobby_frames] == ["cancelled"]
    chips_everywhere()


def test_no_delete_and_a_sit_and_go_is_not_on_this_page(admin_client, clock):
    """A scheduled tournament is cancelled, never deleted (its entries and ledger lines name it);
    a Sit & Go's id is not one of this page's."""
    sit_and_go_presets_seed()
    sit_and_go = Tournament.objects.filter(kind=TournamentKind.SIT_AND_GO).first()
    scheduled = tournament_schedule(
        name="Kept", starts_at=clock.now + timedelta(hours=1), buy_in=10
    )
    assert list(ScheduledTournament.objects.values_list("pk", flat=True)) == [scheduled.pk]
    delete = reverse("admin:holdem_scheduledtournament_delete", args=[scheduled.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert Tournament.objects.filter(pk=scheduled.pk).exists()
    other = admin_client.get(change_url(sit_and_go), follow=True)
    assert b"doesn\xe2\x80\x99t exist" in other.content or other.status_code == 404


def test_the_clock_starts_what_the_admin_scheduled(admin_client, make_player):
    """RULES.md 9: a tournament scheduled in the admin starts at its time like any other."""
    assert admin_client.post(reverse(ADD), schedule_form(name="Soon")).status_code == 302
    tournament = Tournament.objects.get(name="Soon")
    for _ in range(2):
        mtt_register(tournament_id=tournament.pk, user=make_player())
    later = tournament.starts_at + timedelta(seconds=1)
    clock_ran_until(later)
    deadlines_fire_due(later)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    chips_everywhere()

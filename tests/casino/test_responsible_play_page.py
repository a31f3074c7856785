"""The Responsible play page and the sign-in (rules.md 11): limits set and refused with a clear
message, a break asked to be confirmed, then every session of the player signed out, the
sign-in refused saying until when; the session reminder's figures for the player alone."""

from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from casino.accounts.exclusions import exclusion_take
from casino.accounts.models import BuyInLimit, Exclusion
from casino.accounts.preferences import preferences_for

pytestmark = pytest.mark.django_db

PAGE = "/accounts/responsible-play/"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_page_is_linked_from_the_menu_and_the_profile_and_shows_the_limits(make_player):
    client = signed_in(make_player())
    profile = client.get(reverse("profile")).content.decode()
    assert profile.count(f'href="{PAGE}"') == 2  # the site menu and the profile's links
    page = client.get(PAGE).content.decode()
    for words in ("Buy-in limits", "Daily", "Weekly", "Monthly", "Session reminder"):
        assert words in page
    assert "Take a break" in page and "Self-exclusion" in page
    assert Client().get(PAGE).status_code == 302  # signed out: to the sign-in page


def test_a_limit_is_set_and_a_bad_one_is_refused_with_a_message(make_player):
    alice = make_player()
    client = signed_in(alice)
    response = client.post(
        PAGE, {"action": "limit", "period": "day", "amount": "5,000"}, follow=True
    )
    assert messages_of(response) == ["Your daily limit is now 5,000 chips."]
    assert BuyInLimit.objects.get(user=alice, period="day").amount == 5_000
    response = client.post(
        PAGE, {"action": "limit", "period": "day", "amount": "9000"}, follow=True
    )
    assert "Your daily limit becomes 9,000 chips at " in messages_of(response)[0]
    for posted, message in (
        ({"period": "day", "amount": "-5"}, "A limit cannot be negative."),
        ({"period": "day", "amount": "lots"}, "A limit is a whole number of chips."),
        ({"period": "year", "amount": "10"}, "A buy-in limit is daily, weekly or monthly."),
    ):
        before = list(BuyInLimit.objects.filter(user=alice).values())
        response = client.post(PAGE, {"action": "limit", **posted}, follow=True)
        assert messages_of(response) == [message]
        assert list(BuyInLimit.objects.filter(user=alice).values()) == before


def test_the_reminder_is_chosen_on_the_page(make_player):
    alice = make_player()
    client = signed_in(alice)
    client.post(PAGE, {"action": "reminder", "minutes": "30"}, follow=True)
    assert preferences_for(alice).session_reminder_minutes == 30
    response = client.post(PAGE, {"action": "reminder", "minutes": "7"}, follow=True)
    assert messages_of(response) == ["A reminder comes every 15, 30 or 60 minutes, or not at all."]
    assert preferences_for(alice).session_reminder_minutes == 30
    client.post(PAGE, {"action": "reminder", "minutes": "off"})
    assert preferences_for(alice).session_reminder_minutes is None


def test_a_break_asks_for_confirmation_then_signs_out_every_session(make_player):
    alice = make_player("alice")
    laptop, phone = signed_in(alice), signed_in(alice)
    asked = laptop.post(PAGE, {"action": "exclude", "kind": "break", "length": "7d"})
    assert "Take a break for 7 days?" in asked.content.decode()
    assert "cannot be undone" in asked.content.decode()
    assert not Exclusion.objects.exists()  # nothing yet
    done = laptop.post(
        PAGE, {"action": "exclude", "kind": "break", "length": "7d", "confirm": "yes"}, follow=True
    )
    assert done.redirect_chain[-1][0] == reverse("login")
    [message] = messages_of(done)
    assert message.startswith("You took a break until ") and message.endswith("You are signed out.")
    assert Exclusion.objects.get(user=alice).kind == "break"
    # Both devices are signed out.
    for client in (laptop, phone):
        assert client.get(reverse("profile")).status_code == 302


def test_signing_in_on_a_break_is_refused_saying_until_when(make_player, monkeypatch):
    alice = make_player("alice", password="pw-for-tests-123")
    now = datetime(2026, 12, 6, 14, 0, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)
    exclusion_take(user=alice, kind="break", length="24h")
    client = Client()
    signing_in = {"username": "alice", "password": "pw-for-tests-123"}
    response = client.post(reverse("login"), signing_in)
    assert "You took a break until 7 Dec 2026, 14:00 UTC." in response.content.decode()
    assert "_auth_user_id" not in client.session
    now = datetime(2026, 12, 7, 14, 0, tzinfo=UTC)  # the break is over
    assert client.post(reverse("login"), signing_in).status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_a_break_in_force_refuses_the_sign_in_and_a_wrong_password_says_nothing_of_it(
    make_player,
):
    alice = make_player("alice", password="pw-for-tests-123")
    exclusion = exclusion_take(user=alice, kind="self_exclusion", length="1y")
    client = Client()
    response = client.post(reverse("login"), {"username": "alice", "password": "pw-for-tests-123"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "You excluded yourself from play until " in page
    assert str(exclusion.until.year) in page
    assert "_auth_user_id" not in client.session
    wrong = client.post(reverse("login"), {"username": "alice", "password": "not-it"})
    assert "excluded" not in wrong.content.decode()


def test_the_session_figures_are_the_players_own(make_player):
    alice = make_player()
    client = signed_in(alice)
    body = client.get("/accounts/responsible-play/session.json").json()
    assert body["reminder_minutes"] is None and body["session"] is None
    client.post(PAGE, {"action": "reminder", "minutes": "15"})
    body = client.get("/accounts/responsible-play/session.json").json()
    assert (body["reminder_minutes"], body["period_seconds"]) == (15, 15 * 60)
    assert Client().get("/accounts/responsible-play/session.json").status_code == 302

"""Password guessing: 5 failures for one username from one address pause that pair for 15 minutes,
on the site and in the admin, counted in the database that every web server shares."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse
from django.utils import timezone

pytestmark = pytest.mark.django_db

PASSWORD = "flop-turn-river-9"
HOME = "203.0.113.7"


def sign_in(client, username, password, *, address=HOME, url=None):
    return client.post(
        url or reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def fail(client, username, times, **where):
    """`times` wrong passwords; the answer to the last one (the fifth failure is already a 429)."""
    for _ in range(times):
        response = sign_in(client, username, "wrong guess", **where)
    return response


@pytest.fixture
def carol(make_player):
    return make_player("carol", password=PASSWORD)


def test_five_wrong_passwords_pause_the_account_from_that_address_with_a_clear_page(client, carol):
    assert fail(client, "carol", 4).status_code == 200
    assert sign_in(client, "carol", "wrong guess").status_code == 429  # the fifth failure locks
    response = sign_in(client, "carol", PASSWORD)  # even the right password now
    assert response.status_code == 429
    page = response.content.decode()
    assert (
        "Sign-in paused" in page
        and "paused for 15 minutes" in page
        and "<strong>carol</strong>" in page
    )
    assert (
        "Hold&#x27;em Casino" in page or "Hold'em Casino" in page
    )  # the site's own page, not a bare 403
    assert response["Retry-After"] == "900"
    assert client.get(reverse("profile")).status_code == 302  # not signed in


def test_the_count_lives_in_the_database_not_in_a_process_or_a_session(client, carol):
    fail(client, "carol", 3)
    fail(Client(), "carol", 2)  # another browser, as if on another web server
    attempt = AccessAttempt.objects.get(username="carol", ip_address=HOME)
    assert attempt.failures_since_start == 5
    assert sign_in(Client(), "carol", PASSWORD).status_code == 429


def test_the_pause_is_per_username_and_address(client, carol, make_player):
    make_player("dave", password=PASSWORD)
    fail(client, "carol", 5)
    assert (
        sign_in(Client(), "carol", PASSWORD, address="198.51.100.20").status_code == 302
    )  # carol elsewhere
    assert sign_in(Client(), "dave", PASSWORD).status_code == 302  # someone else from here


def test_the_pause_ends_after_the_cool_off(client, carol):
    fail(client, "carol", 5)
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    response = sign_in(client, "carol", PASSWORD)
    assert response.status_code == 302 and response["Location"] == reverse("lobby")


def test_a_successful_sign_in_clears_earlier_typos(client, carol):
    fail(client, "carol", 4)
    assert sign_in(client, "carol", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    fail(client, "carol", 4)
    assert sign_in(client, "carol", PASSWORD).status_code == 302


def test_guessing_unknown_usernames_is_paused_too(client):
    assert fail(client, "nobody", 4).status_code == 200
    assert sign_in(client, "nobody", "wrong guess").status_code == 429


def test_the_admin_sign_in_is_protected_and_shares_the_count(client, make_player):
    root = make_player("root", password=PASSWORD)
    root.is_staff = True
    root.save()
    admin_login = reverse("admin:login")
    assert fail(client, "root", 3).status_code == 200  # on the site
    assert sign_in(client, "root", "wrong guess", url=admin_login).status_code == 200
    response = sign_in(client, "root", "wrong guess", url=admin_login)  # the fifth
    assert response.status_code == 429
    response = sign_in(client, "root", PASSWORD, url=admin_login)
    assert response.status_code == 429
    page = response.content.decode()
    assert "paused for 15 minutes" in page and 'id="site-name"' in page  # in the admin's look
    assert client.get(reverse("admin:index")).status_code == 302


def test_sign_up_still_signs_the_new_player_in(client):
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": "river-card-42x", "password2": "river-card-42x"},
        REMOTE_ADDR=HOME,
    )
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200

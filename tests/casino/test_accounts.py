"""Sign up, sign in, sign out and the profile page, through the test client."""

import pytest
from django.urls import reverse

from casino.accounts.models import LedgerEntry, LedgerKind, User

pytestmark = pytest.mark.django_db


def test_sign_up_creates_the_player_with_the_starting_grant(client, settings):
    settings.CASINO_STARTING_CHIPS = 10_000
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "email": "n@example.com",
            "password1": "river-card-42x",
            "password2": "river-card-42x",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="newbie")
    assert user.wallet.balance == 10_000
    grant = LedgerEntry.objects.get(user=user)
    assert (grant.kind, grant.amount, grant.balance_after) == (LedgerKind.GRANT, 10_000, 10_000)
    # Signed in straight away.
    assert client.get(reverse("profile")).status_code == 200


def test_sign_up_with_mismatched_passwords_shows_an_error_and_creates_nothing(client):
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": "river-card-42x", "password2": "other-card-42x"},
    )
    assert response.status_code == 200
    assert (
        "didn’t match" in response.content.decode() or "didn't match" in response.content.decode()
    )
    assert not User.objects.filter(username="newbie").exists()
    assert LedgerEntry.objects.count() == 0


def test_sign_in_and_sign_out(client, make_player):
    make_player("carol", password="flop-turn-river-9")
    response = client.post(reverse("login"), {"username": "carol", "password": "flop-turn-river-9"})
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert client.get(reverse("profile")).status_code == 200
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("profile")).status_code == 302  # back to the sign-in page


def test_wrong_password_is_refused(client, make_player):
    make_player("carol", password="flop-turn-river-9")
    response = client.post(reverse("login"), {"username": "carol", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_profile_shows_balance_and_paginated_ledger(client, make_player):
    from casino.accounts.services import wallet_adjust

    player = make_player("dave")
    for i in range(25):
        wallet_adjust(
            user=player, amount=i + 1, kind=LedgerKind.ADMIN_ADJUSTMENT, reason=f"bonus {i}"
        )
    client.force_login(player)
    page1 = client.get(reverse("profile")).content.decode()
    assert "10325" in page1  # 10,000 + 1+2+...+25
    assert "bonus 24" in page1 and "Page 1 of 2" in page1
    page2 = client.get(reverse("profile") + "?page=2").content.decode()
    assert "Welcome grant" in page2 and "bonus 24" not in page2


def test_home_page_invites_anonymous_visitors(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Sign up" in response.content.decode()

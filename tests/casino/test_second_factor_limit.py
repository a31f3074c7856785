"""The admin's code page counts wrong codes the way the sign-in page counts wrong passwords: each
one is answered as wrong, and only the limit's worth of them pauses the page."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.accounts.models import User
from casino.accounts.second_factor import totp_device_enrol
from tests.conftest import current_code

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-123"  # make_player's


@pytest.fixture
def boss(make_player):
    user = make_player("boss")
    user.is_staff = True
    user.save()
    user.user_permissions.add(Permission.objects.get(codename="adjust_chips"))
    return User.objects.get(pk=user.pk)


def signed_in_with_password(client, user):
    client.post(
        reverse("admin:login"),
        {"username": user.username, "password": PASSWORD, "next": reverse("admin:index")},
    )
    return client


def wrong_code(device) -> str:
    return f"{(int(current_code(device)) + 1) % 10**6:06d}"


def post_code(client, token):
    return client.post(reverse("admin:second_factor"), {"token": token}).content.decode()


def test_a_second_wrong_code_right_after_the_first_is_called_wrong_not_too_many(client, boss):
    device = totp_device_enrol(user=boss)
    signed_in_with_password(client, boss)
    assert "That code is wrong" in post_code(client, wrong_code(device))
    page = post_code(client, wrong_code(device))  # typed again at once
    assert "That code is wrong" in page
    assert "Too many wrong codes" not in page


def test_the_right_code_right_after_a_wrong_one_opens_the_admin(client, boss):
    device = totp_device_enrol(user=boss)
    signed_in_with_password(client, boss)
    post_code(client, wrong_code(device))
    response = client.post(reverse("admin:second_factor"), {"token": current_code(device)})
    assert response.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200
    device.refresh_from_db()
    assert device.throttling_failure_count == 0


def test_the_limit_of_wrong_codes_pauses_the_page_and_says_for_how_long(client, boss):
    device = totp_device_enrol(user=boss)
    signed_in_with_password(client, boss)
    limit = settings.AXES_FAILURE_LIMIT
    for tries_left in range(limit - 1, 0, -1):
        page = post_code(client, wrong_code(device))
        assert "That code is wrong" in page
        assert f"{tries_left} {'try' if tries_left == 1 else 'tries'} left" in page
    page = post_code(client, wrong_code(device))
    assert "Too many wrong codes" in page and "15 minutes" in page
    # Paused: even the right code waits, and the admin stays shut.
    assert "Too many wrong codes" in post_code(client, current_code(device))
    assert client.get(reverse("admin:index")).status_code == 302


def test_the_pause_ends_after_the_cool_off(client, boss):
    device = totp_device_enrol(user=boss)
    TOTPDevice.objects.filter(pk=device.pk).update(
        throttling_failure_count=settings.AXES_FAILURE_LIMIT,
        throttling_failure_timestamp=timezone.now()
        - settings.AXES_COOLOFF_TIME
        - timedelta(seconds=1),
    )
    signed_in_with_password(client, boss)
    response = client.post(reverse("admin:second_factor"), {"token": current_code(device)})
    assert response.status_code == 302

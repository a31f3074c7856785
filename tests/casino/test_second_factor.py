"""The admin asks staff who may adjust chips for a TOTP code after the password; others are not asked."""

from base64 import b32decode
from io import StringIO
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.accounts.models import LedgerEntry, User
from casino.accounts.second_factor import totp_device_enrol
from tests.conftest import current_code

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests-123"  # make_player's


@pytest.fixture
def player(make_player):
    return make_player("alice")


@pytest.fixture
def staff(make_player):
    def make(username, *, adjusts_chips: bool):
        user = make_player(username)
        user.is_staff = True
        user.save()
        perms = ["view_wallet", "view_ledgerentry"] + (["adjust_chips"] if adjusts_chips else [])
        user.user_permissions.add(*Permission.objects.filter(codename__in=perms))
        return User.objects.get(pk=user.pk)

    return make


def adjust_url(user):
    return reverse("admin:accounts_wallet_adjust", args=[user.wallet.pk])


def admin_password_sign_in(client, username, next_url=None):
    url = reverse("admin:login") + (f"?next={next_url}" if next_url else "")
    return client.post(
        url,
        {"username": username, "password": PASSWORD, "next": next_url or reverse("admin:index")},
    )


def code_page(response) -> bool:
    return response.status_code == 302 and urlsplit(response["Location"]).path == reverse(
        "admin:second_factor"
    )


def test_a_chip_adjuster_with_the_right_password_is_sent_to_the_code_page_not_the_admin(
    client, player, staff
):
    boss = staff("boss", adjusts_chips=True)
    totp_device_enrol(user=boss)
    assert code_page(admin_password_sign_in(client, "boss"))
    for url in (reverse("admin:index"), adjust_url(player)):
        response = client.get(url, follow=True)
        assert response.redirect_chain[-1][0].startswith(reverse("admin:second_factor"))
        assert "authenticator app" in response.content.decode()
    assert client.post(adjust_url(player), {"amount": "5000", "reason": "gift"}).status_code == 302
    assert not LedgerEntry.objects.filter(actor=boss).exists()


def test_a_wrong_code_is_refused_with_words_and_the_adjust_page_stays_shut(client, player, staff):
    boss = staff("boss", adjusts_chips=True)
    device = totp_device_enrol(user=boss)
    admin_password_sign_in(client, "boss")
    wrong = f"{(int(current_code(device)) + 1) % 10**6:06d}"
    response = client.post(reverse("admin:second_factor"), {"token": wrong})
    assert response.status_code == 200
    assert "That code is wrong or already used" in response.content.decode()
    assert client.post(reverse("admin:second_factor"), {"token": "letters"}).status_code == 200
    assert client.get(adjust_url(player)).status_code == 302
    device.refresh_from_db()
    assert device.throttling_failure_count == 1  # counted, though the check failed


def test_the_right_code_opens_the_admin_and_the_adjust_page(client, player, staff):
    boss = staff("boss", adjusts_chips=True)
    device = totp_device_enrol(user=boss)
    response = admin_password_sign_in(client, "boss", next_url=adjust_url(player))
    assert code_page(response)
    assert parse_qs(urlsplit(response["Location"]).query)["next"] == [adjust_url(player)]
    response = client.post(
        response["Location"], {"token": current_code(device), "next": adjust_url(player)}
    )
    assert response.status_code == 302 and response["Location"] == adjust_url(player)
    assert client.get(adjust_url(player)).status_code == 200
    assert client.post(adjust_url(player), {"amount": "500", "reason": "bonus"}).status_code == 302
    assert LedgerEntry.objects.get(actor=boss).amount == 500


def test_a_chip_adjuster_without_a_device_is_told_to_ask_for_one(client, player, staff):
    boss = staff("boss", adjusts_chips=True)
    TOTPDevice.objects.create(user=boss, name="never confirmed", confirmed=False)  # proves nothing
    assert code_page(admin_password_sign_in(client, "boss"))
    page = client.get(reverse("admin:second_factor")).content.decode()
    assert "none is enrolled yet" in page and "totp_enrol boss" in page
    response = client.post(reverse("admin:second_factor"), {"token": "123456"})
    assert "none is enrolled yet" in response.content.decode()
    assert client.get(adjust_url(player)).status_code == 302


def test_staff_without_the_permission_sign_in_with_the_password_alone(client, player, staff):
    staff("clerk", adjusts_chips=False)
    response = admin_password_sign_in(client, "clerk")
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")
    assert client.get(reverse("admin:accounts_wallet_changelist")).status_code == 200
    # The code page has nothing to ask them: it sends them on.
    assert client.get(reverse("admin:second_factor")).status_code == 302
    assert client.get(adjust_url(player)).status_code == 403


def test_superusers_need_the_code_too(client, make_player):
    root = make_player("root")
    root.is_staff = root.is_superuser = True
    root.save()
    device = totp_device_enrol(user=root)
    assert code_page(admin_password_sign_in(client, "root"))
    assert client.get(reverse("admin:accounts_wallet_changelist")).status_code == 302
    client.post(reverse("admin:second_factor"), {"token": current_code(device)})
    assert client.get(reverse("admin:accounts_wallet_changelist")).status_code == 200


def test_signing_in_on_the_site_does_not_open_the_admin_to_a_chip_adjuster(client, staff):
    staff("boss", adjusts_chips=True)
    assert (
        client.post(reverse("login"), {"username": "boss", "password": PASSWORD}).status_code == 302
    )
    response = client.get(reverse("admin:index"), follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("admin:second_factor"))


def test_being_given_the_permission_mid_session_asks_for_the_code_on_the_next_page(client, staff):
    clerk = staff("clerk", adjusts_chips=False)
    admin_password_sign_in(client, "clerk")
    assert client.get(reverse("admin:index")).status_code == 200
    clerk.user_permissions.add(Permission.objects.get(codename="adjust_chips"))
    response = client.get(reverse("admin:index"), follow=True)
    assert response.redirect_chain[-1][0].startswith(reverse("admin:second_factor"))


def test_a_code_works_once(client, staff):
    boss = staff("boss", adjusts_chips=True)
    device = totp_device_enrol(user=boss)
    code = current_code(device)
    admin_password_sign_in(client, "boss")
    assert client.post(reverse("admin:second_factor"), {"token": code}).status_code == 302
    client.post(reverse("logout"))
    admin_password_sign_in(client, "boss")
    response = client.post(reverse("admin:second_factor"), {"token": code})
    assert "That code is wrong or already used" in response.content.decode()
    assert client.get(reverse("admin:index")).status_code == 302


def test_another_chip_adjusters_code_does_not_verify_this_one(client, staff):
    totp_device_enrol(user=staff("boss", adjusts_chips=True))
    other_device = totp_device_enrol(user=staff("banker", adjusts_chips=True))
    admin_password_sign_in(client, "boss")
    response = client.post(reverse("admin:second_factor"), {"token": current_code(other_device)})
    assert "That code is wrong or already used" in response.content.decode()
    assert client.get(reverse("admin:index")).status_code == 302


def test_after_wrong_codes_even_the_right_one_waits(client, staff):
    boss = staff("boss", adjusts_chips=True)
    device = totp_device_enrol(user=boss)
    TOTPDevice.objects.filter(pk=device.pk).update(
        throttling_failure_count=5,
        throttling_failure_timestamp=timezone.now(),  # 16 s to wait
    )
    admin_password_sign_in(client, "boss")
    response = client.post(reverse("admin:second_factor"), {"token": current_code(device)})
    assert "Too many wrong codes" in response.content.decode()
    assert client.get(reverse("admin:index")).status_code == 302


def test_the_code_page_never_sends_anyone_off_site(client, staff):
    boss = staff("boss", adjusts_chips=True)
    device = totp_device_enrol(user=boss)
    admin_password_sign_in(client, "boss")
    response = client.post(
        reverse("admin:second_factor"),
        {"token": current_code(device), "next": "https://evil.example/admin/"},
    )
    assert response.status_code == 302 and response["Location"] == reverse("admin:index")


def test_anonymous_visitors_of_the_code_page_go_to_the_sign_in_page(client):
    response = client.get(reverse("admin:second_factor"))
    assert response.status_code == 302 and urlsplit(response["Location"]).path == reverse(
        "admin:login"
    )


def test_the_enrol_command_prints_a_secret_the_admin_accepts(client, staff):
    staff("boss", adjusts_chips=True)
    out = StringIO()
    call_command("totp_enrol", "boss", stdout=out)
    text = out.getvalue()
    uri = next(line for line in text.splitlines() if line.startswith("otpauth URI: ")).split(
        ": ", 1
    )[1]
    assert uri.startswith("otpauth://totp/Hold%27em%20Casino%3Aboss?")
    secret = parse_qs(urlsplit(uri).query)["secret"][0]
    assert f"secret (base32, for typing in): {secret}" in text
    code = f"{totp(b32decode(secret)):06d}"
    admin_password_sign_in(client, "boss")
    assert client.post(reverse("admin:second_factor"), {"token": code}).status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200


def test_the_enrol_command_replaces_a_lost_phone_and_refuses_unknown_users(staff):
    boss = staff("boss", adjusts_chips=True)
    lost = totp_device_enrol(user=boss, name="old phone")
    call_command("totp_enrol", "boss", "--replace", "--name", "new phone", stdout=StringIO())
    assert list(TOTPDevice.objects.filter(user=boss).values_list("name", flat=True)) == [
        "new phone"
    ]
    assert not TOTPDevice.objects.filter(pk=lost.pk).exists()
    with pytest.raises(CommandError, match="no user called 'nobody'"):
        call_command("totp_enrol", "nobody", stdout=StringIO())

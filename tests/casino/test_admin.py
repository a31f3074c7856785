"""Admin chip management: only with the permission, with a reason, never below zero."""

import re

import pytest
from django.contrib.auth.models import Permission
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from casino.accounts.models import LedgerEntry, LedgerKind, User
from casino.errors import DomainError

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(make_player):
    return make_player("alice")


@pytest.fixture
def staff(make_player):
    def make(with_permission: bool):
        user = make_player("boss" if with_permission else "clerk")
        user.is_staff = True
        user.save()
        perms = ["view_wallet", "view_ledgerentry"] + (["adjust_chips"] if with_permission else [])
        user.user_permissions.add(*Permission.objects.filter(codename__in=perms))
        return User.objects.get(pk=user.pk)

    return make


def adjust_url(user):
    return reverse("admin:accounts_wallet_adjust", args=[user.wallet.pk])


def test_permitted_admin_adjusts_and_the_entry_records_actor_and_reason(
    client, player, staff, admin_sign_in
):
    boss = staff(True)
    admin_sign_in(boss)
    response = client.post(adjust_url(player), {"amount": "-1500", "reason": "chargeback"})
    assert response.status_code == 302
    entry = LedgerEntry.objects.filter(user=player).first()
    assert (entry.amount, entry.kind, entry.actor, entry.reason) == (
        -1500,
        LedgerKind.ADMIN_ADJUSTMENT,
        boss,
        "chargeback",
    )
    player.wallet.refresh_from_db()
    assert player.wallet.balance == 8_500


def test_staff_without_the_permission_gets_403_and_no_entry(client, player, staff, admin_sign_in):
    admin_sign_in(staff(False))
    before = LedgerEntry.objects.count()
    assert client.get(adjust_url(player)).status_code == 403
    assert client.post(adjust_url(player), {"amount": "100", "reason": "gift"}).status_code == 403
    assert LedgerEntry.objects.count() == before


@pytest.mark.parametrize(
    "amount, reason, message",
    [
        ("0", "zero", "must not be zero"),
        ("1.5", "fraction", "whole number"),
        ("lots", "text", "whole number"),
        ("", "missing", "required"),
        ("100", "", "required"),
        ("-10001", "too much", "negative balance"),
    ],
)
def test_bad_adjustments_show_a_form_error_and_write_nothing(
    client, player, staff, admin_sign_in, amount, reason, message
):
    admin_sign_in(staff(True))
    before = LedgerEntry.objects.count()
    response = client.post(adjust_url(player), {"amount": amount, "reason": reason})
    assert response.status_code == 200
    assert message in response.content.decode()
    assert LedgerEntry.objects.count() == before
    player.wallet.refresh_from_db()
    assert player.wallet.balance == 10_000


def test_wallet_balance_is_read_only_and_ledger_cannot_be_edited_in_admin(
    client, player, staff, make_player, admin_sign_in
):
    admin = make_player("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    admin_sign_in(admin)
    change = client.get(
        reverse("admin:accounts_wallet_change", args=[player.wallet.pk])
    ).content.decode()
    assert 'name="balance"' not in change
    entry = LedgerEntry.objects.filter(user=player).first()
    assert client.get(reverse("admin:accounts_ledgerentry_add")).status_code == 403
    assert (
        client.post(
            reverse("admin:accounts_ledgerentry_delete", args=[entry.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    view = client.get(
        reverse("admin:accounts_ledgerentry_change", args=[entry.pk])
    ).content.decode()
    assert 'name="amount"' not in view
    search = client.get(reverse("admin:accounts_wallet_changelist") + "?q=alice").content.decode()
    assert "alice" in search and "Adjust chips" in search


def test_users_created_in_the_admin_get_a_wallet_with_the_grant(client, make_player, admin_sign_in):
    admin = make_player("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    admin_sign_in(admin)
    response = client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "walkin",
            "password1": "table-stakes-77",
            "password2": "table-stakes-77",
            "usable_password": "true",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert User.objects.get(username="walkin").wallet.balance == 10_000


def admin_row(page: str, field: str) -> tuple[str, str]:
    """A form row of an admin page by its field: (its classes, its HTML up to the next row)."""
    found = re.search(
        rf'<div class="(form-row[^"]*\bfield-{field}\b[^"]*)">(.*?)(?=<div class="form-row|</fieldset>)',
        page,
        re.S,
    )
    assert found, f"no row for {field}"
    return found[1], found[2]


@pytest.mark.parametrize(
    "amount, reason, field, message",
    [
        ("-10001", "too much", "amount", "would leave a negative balance"),
        ("0", "zero", "amount", "must not be zero"),
        ("100", "  ", "reason", "required"),
    ],
)
def test_an_adjustment_error_sits_under_the_field_it_is_about(
    client, player, staff, admin_sign_in, amount, reason, field, message
):
    admin_sign_in(staff(True))
    page = client.post(adjust_url(player), {"amount": amount, "reason": reason}).content.decode()
    classes, row = admin_row(page, field)
    assert "errors" in classes and message in row
    assert "nonfield" not in page


def test_a_refusal_about_the_whole_adjustment_stays_above_the_fields(
    client, player, staff, admin_sign_in, monkeypatch
):
    def refuse(**kwargs):
        raise DomainError("key_reused", "this idempotency key was already used")

    admin_sign_in(staff(True))
    monkeypatch.setattr("casino.accounts.admin.services.wallet_adjust", refuse)
    page = client.post(adjust_url(player), {"amount": "5", "reason": "gift"}).content.decode()
    nonfield = re.search(r'<ul class="errorlist nonfield">(.*?)</ul>', page, re.S)
    assert nonfield and "already used" in nonfield[1]
    for field in ("amount", "reason"):
        classes, _row = admin_row(page, field)
        assert "errors" not in classes


def test_chip_amounts_have_thousands_separators_in_the_admin_and_on_the_profile(
    client, player, make_player, admin_sign_in
):
    admin = make_player("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    admin_sign_in(admin)
    response = client.post(adjust_url(player), {"amount": "-1500", "reason": "chargeback"})
    assert response.status_code == 302
    wallets = client.get(reverse("admin:accounts_wallet_changelist")).content.decode()
    assert '<td class="field-balance">8,500</td>' in wallets
    users = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert '<td class="field-chip_balance">8,500</td>' in users
    wallet_page = client.get(
        reverse("admin:accounts_wallet_change", args=[player.wallet.pk])
    ).content.decode()
    _classes, row = admin_row(wallet_page, "balance")
    assert '<div class="readonly">8,500</div>' in row
    adjust_page = client.get(adjust_url(player)).content.decode()
    assert "Current balance: <strong>8,500</strong>" in adjust_page
    ledger = client.get(
        reverse("admin:accounts_ledgerentry_changelist"), {"q": "alice"}
    ).content.decode()
    assert '<td class="field-amount">-1,500</td>' in ledger
    assert '<td class="field-amount">+10,000</td>' in ledger
    assert '<td class="field-balance_after">8,500</td>' in ledger
    assert '<td class="field-balance_after">10,000</td>' in ledger
    entry = LedgerEntry.objects.filter(user=player).first()
    entry_page = client.get(
        reverse("admin:accounts_ledgerentry_change", args=[entry.pk])
    ).content.decode()
    assert '<div class="readonly">-1,500</div>' in admin_row(entry_page, "amount")[1]
    # Its place in the wallet's hash chain, read-only (manage.py verify_chain checks it).
    assert (
        f'<div class="readonly">{entry.chain_hash}</div>' in admin_row(entry_page, "chain_hash")[1]
    )
    assert 'name="chain_hash"' not in entry_page
    # The player's own page writes them the same way.
    client.force_login(player)
    profile = client.get(reverse("profile")).content.decode()
    assert '<data value="8500">8,500</data>' in profile
    assert ">-1,500</td>" in profile and ">+10,000</td>" in profile
    assert ">8,500</td>" in profile and ">10,000</td>" in profile


def test_the_adjustment_message_keeps_the_username_as_it_was_typed(
    client, make_player, staff, admin_sign_in
):
    newbie = make_player("newbie")
    admin_sign_in(staff(True))
    page = client.post(
        adjust_url(newbie), {"amount": "2500", "reason": "welcome back"}, follow=True
    )
    message = re.search(r'<li class="success">(.*?)</li>', page.content.decode()).group(1)
    assert message == "newbie: +2,500 chips, balance now 12,500."


def test_the_wallet_page_offers_no_save_with_nothing_to_edit(
    client, player, staff, make_player, admin_sign_in
):
    root = make_player("root")
    root.is_staff = root.is_superuser = True
    root.save()
    admin_sign_in(root)
    page = client.get(reverse("admin:accounts_wallet_change", args=[player.wallet.pk]))
    html = page.content.decode()
    assert page.status_code == 200 and "Adjust chips" in html
    assert 'value="Save"' not in html and 'name="_save"' not in html
    assert 'name="_continue"' not in html
    # Posting the form anyway changes nothing.
    client.post(reverse("admin:accounts_wallet_change", args=[player.wallet.pk]), {"_save": "1"})
    player.wallet.refresh_from_db()
    assert player.wallet.balance == 10_000


def test_every_page_has_an_icon_the_admin_included(client, player, staff, admin_sign_in):
    """/favicon.ico (asked for by any page that names no icon) leads to the static icon; the
    admin's pages name it, as the site's do."""
    icon = client.get("/favicon.ico")
    assert icon.status_code == 302 and icon["Location"] == static("favicon.ico")
    with open(finders.find("favicon.ico"), "rb") as file:
        assert file.read(4) == b"\x00\x00\x01\x00"  # an ICO file
    admin_sign_in(staff(True))
    admin = client.get(reverse("admin:accounts_wallet_changelist")).content.decode()
    assert f'rel="icon" href="{static("favicon.svg")}"' in admin

"""The admin's chip adjustment, clicked through in a real Chromium (issue: foundation), behind the
admin's second factor: the password, then the code from an authenticator app."""

import re
import time
from base64 import b32decode
from urllib.parse import parse_qs, urlsplit

import pytest
from django_otp.oath import totp
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def enrol_authenticator(site, username) -> bytes:
    """What an operator does (manage.py totp_enrol); returns the secret the phone app would load."""
    out = site["manage"]("totp_enrol", username, "--replace")
    uri = next(line for line in out.splitlines() if line.startswith("otpauth URI: ")).split(
        ": ", 1
    )[1]
    return b32decode(parse_qs(urlsplit(uri).query)["secret"][0])


def code_now(secret: bytes) -> str:
    return f"{totp(secret):06d}"


def test_an_admin_adjusts_a_balance_with_a_reason_and_bad_input_is_refused(site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        secret = enrol_authenticator(site, "admin")
        page.goto(site["base"] + "/admin/login/")
        page.fill("#id_username", "admin")
        page.fill("#id_password", "holdem-admin")  # seed_demo's local-only admin
        page.click("input[type=submit]")
        # The password alone does not open the admin to someone who can create chips.
        page.wait_for_url("**/admin/second-factor/**")
        page.goto(site["base"] + "/admin/accounts/wallet/")
        page.wait_for_url("**/admin/second-factor/**")
        wrong = f"{(int(code_now(secret)) + 500_000) % 1_000_000:06d}"
        page.fill("#id_token", wrong)
        page.click("#second-factor-form input[type=submit]")
        expect(page.get_by_text("That code is wrong or already used")).to_be_visible()
        time.sleep(1.2)  # django-otp waits 1 s after a wrong code before it checks another
        page.fill("#id_token", code_now(secret))
        page.click("#second-factor-form input[type=submit]")
        page.wait_for_url("**/admin/accounts/wallet/")
        page.goto(site["base"] + "/admin/accounts/wallet/?q=carol")
        row = page.locator("#result_list tbody tr", has_text="carol")
        balance = int(re.sub(r"\D", "", row.locator("td.field-balance").inner_text()))
        row.get_by_role("link", name="Adjust chips").click()
        # A bad amount and an empty reason are refused with words on the form.
        page.fill("#id_amount", "1.5")
        page.fill("#id_reason", "")
        page.click("input[type=submit]")
        expect(page.get_by_text("Enter a whole number of chips.")).to_be_visible()
        page.fill("#id_amount", str(-(balance + 1)))
        page.fill("#id_reason", "too much")
        page.click("input[type=submit]")
        expect(page.get_by_text("would leave a negative balance")).to_be_visible()
        # A good one lands in the ledger with the admin as the actor.
        page.fill("#id_amount", "-250")
        page.fill("#id_reason", "chargeback 1234")
        page.click("input[type=submit]")
        expect(
            page.get_by_text(f"carol: -250 chips, balance now {balance - 250:,}.")
        ).to_be_visible()
        page.goto(site["base"] + "/admin/accounts/ledgerentry/?q=chargeback")
        entry = page.locator("#result_list tbody tr").first
        assert (
            "carol" in entry.inner_text()
            and "admin" in entry.inner_text()
            and "-250" in entry.inner_text()
        )
    finally:
        context.close()

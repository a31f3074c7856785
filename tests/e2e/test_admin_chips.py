"""The admin's chip adjustment, clicked through in a real Chromium (issue: foundation)."""
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_an_admin_adjusts_a_balance_with_a_reason_and_bad_input_is_refused(site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto(site["base"] + "/admin/login/")
        page.fill("#id_username", "admin")
        page.fill("#id_password", "holdem-admin")  # seed_demo's local-only admin
        page.click("input[type=submit]")
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
        expect(page.get_by_text(f"carol: -250 chips, balance now {balance - 250:,}.")).to_be_visible()
        page.goto(site["base"] + "/admin/accounts/ledgerentry/?q=chargeback")
        entry = page.locator("#result_list tbody tr").first
        assert "carol" in entry.inner_text() and "admin" in entry.inner_text() and "-250" in entry.inner_text()
    finally:
        context.close()

"""Scheduled tournaments through the pages (RULES.md 9): a player registers and unregisters in the
lobby while another player's lobby follows the entrants live; a tournament that starts is
followed on its own page, which fills in its tables, players and stacks as it polls, and each
table opens to watch. Screenshots at 1280 px and 360 px go to artifacts/."""

import json

from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD

SETUP = """
import json
from datetime import timedelta
from django.utils import timezone
from casino.accounts.models import User
from casino.accounts.services import account_create
from holdem.services.multi_table import mtt_register, tournament_schedule
users = {}
for name in ("mtt-ann", "mtt-ben", "mtt-cy", "mtt-p1", "mtt-p2", "mtt-p3", "mtt-p4"):
    users[name] = User.objects.filter(username=name).first() or account_create(
        username=name, password=%r
    )
now = timezone.now()
later = tournament_schedule(
    name="E2E Daily", starts_at=now + timedelta(hours=2), buy_in=1000, fee=100,
    late_registration_levels=2, re_entries=1,
)
soon = tournament_schedule(
    name="E2E Turbo", starts_at=now + timedelta(seconds=6), buy_in=100, seats=3,
    starting_stack=1500, level_seconds=300, turn_seconds=60,
)
for name in ("mtt-p1", "mtt-p2", "mtt-p3", "mtt-p4"):
    mtt_register(tournament_id=soon.pk, user=users[name])
print("MTT=" + json.dumps({"later": later.pk, "soon": soon.pk}))
"""


def test_the_lobby_follows_registrations_live_and_the_tournament_page_its_tables(
    site, sign_in, artifacts
):
    out = site["manage"]("shell", "-c", SETUP % PASSWORD)
    ids = json.loads(next(line for line in out.splitlines() if line.startswith("MTT="))[4:])
    ann, ben = sign_in("mtt-ann"), sign_in("mtt-ben", phone=True)
    rows = [page.locator(f'[data-tournament-id="{ids["later"]}"]') for page in (ann, ben)]
    for row in rows:
        expect(row).to_contain_text("E2E Daily")
        expect(row).to_contain_text("1,000 + 100")
        expect(row).to_contain_text("Late registration until the end of level 2")
        expect(row).to_contain_text("1 re-entry")

    rows[0].get_by_role("button", name="Register", exact=True).click()
    expect(rows[0].get_by_role("button", name="Unregister")).to_be_visible()
    expect(rows[0]).to_contain_text("Registered")
    # The other lobby hears it through the lobby socket's `tournament` frames: one entrant.
    expect(rows[1].locator(".sng-taken")).to_have_text("1")
    expect(rows[1].get_by_role("button", name="Register", exact=True)).to_be_visible()
    ann.locator("#tournaments").screenshot(path=str(artifacts / "mtt-lobby-1280.png"))
    ben.locator("#tournaments").screenshot(path=str(artifacts / "mtt-lobby-360.png"))

    rows[0].get_by_role("button", name="Unregister").click()
    expect(rows[0].get_by_role("button", name="Register", exact=True)).to_be_visible()
    expect(rows[1].locator(".sng-taken")).to_have_text("0")

    # The turbo starts on the server's clock; its page, open before or after, shows its tables.
    watcher = sign_in("mtt-cy")
    watcher.goto(f"{site['base']}/tournaments/{ids['soon']}/")
    tables = watcher.locator("#mtt-tables")
    expect(tables.locator(".mtt-table-card")).to_have_count(2, timeout=30_000)
    for name in ("mtt-p1", "mtt-p2", "mtt-p3", "mtt-p4"):
        expect(tables).to_contain_text(name)
    expect(tables).to_contain_text("1,500")
    expect(watcher.locator("#mtt-summary")).to_contain_text("Running")
    expect(watcher.locator(".mtt-clock")).to_contain_text("in ")
    watcher.screenshot(path=str(artifacts / "mtt-page-1280.png"), full_page=True)
    watcher.set_viewport_size({"width": 360, "height": 780})
    watcher.screenshot(path=str(artifacts / "mtt-page-360.png"), full_page=True)
    # Anyone signed in may watch a table of it.
    tables.get_by_role("link", name="Watch").first.click()
    watcher.wait_for_url("**/tables/*/")
    for page in (ann, ben, watcher):
        assert page.errors == [], page.errors

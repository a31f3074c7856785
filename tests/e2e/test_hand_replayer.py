"""Real Chromium: the replayer on a finished hand's page. A three-handed side-pot hand, played
through the services from a stacked deck, is stepped through with Next, Previous, the arrow keys,
the street jumps and Play; the felt shows each step's board, pots and stacks, and no other
player's hole card is in the replayer before the showdown."""

import json
import re

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_play import expect
from tests.e2e.test_table_rules import shoot
from tests.holdem.test_hand_replay import SIDE_POT_SCRIPT

pytestmark = pytest.mark.e2e

REPLAY_PLAYERS = ["replay01", "replay02", "replay03"]  # seats 0, 1 and 2
# Dealt from the seat left of the button (seat 1), one card each at a time; then burn, flop,
# burn, turn, burn, river. Seat 0 (2,000 chips) has aces and wins the main pot; seat 2's three
# queens beat seat 1's kings for the side pot.
DECK_TOP = ["Kc", "Qc", "As", "Kd", "Qd", "Ad", "3h", "Ah", "Qh", "7s", "4h", "2c", "5h", "9d"]
FOREIGN = ["As", "Ad", "Qc", "Qd"]  # seat 0's and seat 2's cards, as seat 1 must not see them
SCRIPT = SIDE_POT_SCRIPT  # the side-pot hand the service tests replay

# Run by `manage.py shell -c` against the e2e site's database: the players, a room, the hand
# played to its end through the services (the deck and the button chosen here only), and the
# players gone again, so the site's clock deals no other hand there.
PLAY_HAND = """
import json
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils import timezone
from casino.accounts.models import User
from casino.accounts.services import account_open
from holdem.engine.cards import new_deck
from holdem.db.locks import table_lock
from holdem.services import game_kinds
from holdem.services import hand_start as hand_service
from holdem.services import room_create, table_act, table_leave, table_sit
setup = json.loads({setup!r})
hashed = make_password(setup["password"])
users = []
for name in setup["players"]:
    user = User.objects.create(username=name, password=hashed)
    account_open(user=user)
    users.append(user)
table = room_create(name="E2E Replay", preset="nl50", seats=6, countdown_seconds=60, turn_seconds=120)
top = setup["deck"]
hand_service.hand_deck = lambda: top + [card for card in new_deck() if card not in top]
game_kinds.next_button = lambda previous, dealt, rng: 0
for user, seat, stack in zip(users, (0, 1, 2), (2000, 5000, 5000)):
    table_sit(table_id=table.pk, user=user, seat=seat, buy_in=stack)
with transaction.atomic():
    hand_service.hand_start(table_lock(table.pk), timezone.now())
for seat, action, amount in setup["script"]:
    table_act(table_id=table.pk, user=users[seat], action=action, amount=amount)
for user in users:
    table_leave(table_id=table.pk, user=user)
table.refresh_from_db()
print("HAND=" + str(table.last_hand_id))
"""


@pytest.fixture(scope="module")
def side_pot_hand(site):
    setup = json.dumps(
        {"players": REPLAY_PLAYERS, "password": PASSWORD, "deck": DECK_TOP, "script": SCRIPT}
    )
    out = site["manage"]("shell", "-c", PLAY_HAND.format(setup=setup))
    return int(next(line for line in out.splitlines() if line.startswith("HAND="))[5:])


def stack_of(page, seat):
    return page.locator(f'#replay .seat[data-seat="{seat}"] .seat-stack')


def street(page, name):
    return page.locator("#replay-streets").get_by_role("button", name=name, exact=True)


def step_button(page, name):
    return page.locator("#replay").get_by_role("button", name=name, exact=True)


def foreign_cards_in_replayer(page):
    selector = ", ".join(f'#replay [data-card="{code}"]' for code in FOREIGN)
    return page.evaluate(f"() => document.querySelectorAll('{selector}').length")


def test_stepping_through_a_side_pot_hand_on_the_felt(site, side_pot_hand, sign_in, artifacts):
    page = sign_in(REPLAY_PLAYERS[1])
    page.goto(f"{site['base']}/hands/{side_pot_hand}/")
    replay = page.locator("#replay")
    caption, position = page.locator("#replay-caption"), page.locator("#replay-position")
    board = page.locator("#replay-board .pcard.face")
    expect(replay).to_be_visible()
    expect(page.locator("h1")).to_contain_text(f"Hand #{side_pot_hand}")

    # The start: stacks before the blinds, the player's own two cards, nobody else's.
    expect(position).to_contain_text("Step 1 of")
    expect(caption).to_contain_text(f"Hand #{side_pot_hand}")
    expect(stack_of(page, 0)).to_have_text("2,000")
    expect(stack_of(page, 1)).to_have_text("5,000")
    expect(page.locator('#replay .seat[data-seat="1"] .pcard.face')).to_have_count(2)
    expect(page.locator('#replay .seat[data-seat="0"] .pcard.back')).to_have_count(2)
    expect(step_button(page, "Previous")).to_be_disabled()

    # Next: the blinds go in, one step each.
    step_button(page, "Next").click()
    expect(caption).to_have_text(f"{REPLAY_PLAYERS[1]} posts the small blind 50")
    step_button(page, "Next").click()
    expect(caption).to_have_text(f"{REPLAY_PLAYERS[2]} posts the big blind 100")
    expect(page.locator("#replay-pots [data-pot-total]")).to_have_text("150")
    # The arrow key: the short stack is all in.
    page.keyboard.press("ArrowRight")
    expect(caption).to_have_text(f"{REPLAY_PLAYERS[0]} raises to 2,000, all in")
    expect(stack_of(page, 0)).to_have_text("0")
    expect(page.locator('#replay .seat[data-seat="0"]')).to_have_attribute("data-state", "all_in")

    # Street jumps: the flop with one pot, the turn with a side pot beside it.
    street(page, "Flop").click()
    expect(board).to_have_count(3)
    expect(page.locator("#replay-pots [data-pot-total]")).to_have_text("6,000")
    expect(stack_of(page, 1)).to_have_text("3,000")
    street(page, "Turn").click()
    expect(board).to_have_count(4)
    expect(page.locator("#replay-pots .pot-list")).to_have_text(
        re.compile(r"Main 6,000\s*Side 1 2,000")
    )
    expect(page.locator("#replay-pots [data-pot-total]")).to_have_text("8,000")
    # Back a step with the arrow key, another with Previous: the flop's call, then its bet.
    page.keyboard.press("ArrowLeft")
    expect(caption).to_have_text(f"{REPLAY_PLAYERS[2]} calls 1,000")
    expect(board).to_have_count(3)
    step_button(page, "Previous").click()
    expect(caption).to_have_text(f"{REPLAY_PLAYERS[1]} bets 1,000")
    expect(stack_of(page, 1)).to_have_text("2,000")
    shoot(page, artifacts, "hand-replayer-flop")

    # No other player's hole card is on the felt at any step before the showdown.
    street(page, "Showdown").click()
    expect(caption).to_contain_text(f"{REPLAY_PLAYERS[1]} shows")
    showdown = int(page.locator("#replay-stage").get_attribute("data-step"))
    assert foreign_cards_in_replayer(page) == 0  # the kings are shown first
    seen = page.evaluate(
        """async ([count, codes]) => {
            const { replayer } = await import(document.querySelector('script[src*="replay.js"]').src);
            const found = [];
            for (let step = 0; step < count; step += 1) {
                replayer.go(step);
                const cards = [...document.querySelectorAll("#replay [data-card]")].map((c) => c.dataset.card);
                found.push(cards.filter((code) => codes.includes(code)));
            }
            return found;
        }""",
        [showdown, FOREIGN],
    )
    assert seen == [[]] * showdown

    # From the showdown on, each hand as it was shown; the end: pots paid, the stored stacks.
    street(page, "Showdown").click()
    step_button(page, "Next").click()
    expect(page.locator('#replay .seat[data-seat="2"] .pcard.face')).to_have_count(2)
    page.keyboard.press("End")
    expect(caption).to_contain_text(f"{REPLAY_PLAYERS[0]} collects 6,000 from the main pot")
    expect(caption).to_contain_text(f"{REPLAY_PLAYERS[2]} collects 5,000 from side pot 1")
    for seat, stack in ((0, "6,000"), (1, "500"), (2, "5,500")):
        expect(stack_of(page, seat)).to_have_text(stack)
    expect(page.locator("#replay .seat .win-flag")).to_have_count(2)
    expect(page.locator("#replay-pots .pot-list.results")).to_contain_text("Main pot 6,000")
    expect(board).to_have_count(5)
    expect(step_button(page, "Next")).to_be_disabled()
    shoot(page, artifacts, "hand-replayer-result")

    # Play from the start steps on by itself until paused.
    street(page, "Pre-flop").click()
    expect(position).to_contain_text("Step 1 of")
    play = page.locator("#replay-play")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(position).to_contain_text("Step 3 of", timeout=5_000)
    play.click()
    expect(play).to_have_text("Play")
    assert not page.errors


def test_verify_checks_the_hands_cards_against_its_commitment(
    site, side_pot_hand, sign_in, artifacts
):
    """docs/fairness.md: Verify on the hand page proves, in the browser, the cards the player can
    see against the commitment made before the deal; a page whose reveal was changed fails."""
    page = sign_in(REPLAY_PLAYERS[1])
    page.goto(f"{site['base']}/hands/{side_pot_hand}/")
    commitment = page.locator("#fairness-commitment").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    result = page.locator("#verify-result")
    page.get_by_role("button", name="Verify", exact=True).click()
    expect(result).to_contain_text("Verified: the")
    expect(result).to_contain_text(commitment[:12])
    shoot(page, artifacts, "hand-verified")

    # A page that claims another river than the one committed to (here changed on its way to the
    # browser) is refused, and the problem is named.
    def change_river(route):
        response = route.fetch()
        body = response.text()
        data = re.search(r'<script id="hand-fairness" type="application/json">(.*?)</script>', body)
        fairness = json.loads(data.group(1))
        river = fairness["positions"]["board:4"]
        fairness["cards"][river]["card"] = "2c" if fairness["board"][4] != "2c" else "3c"
        fairness["board"][4] = fairness["cards"][river]["card"]
        body = body.replace(data.group(1), json.dumps(fairness))
        route.fulfill(response=response, body=body)

    page.route(f"**/hands/{side_pot_hand}/", change_river)
    page.goto(f"{site['base']}/hands/{side_pot_hand}/")
    page.get_by_role("button", name="Verify", exact=True).click()
    expect(result).to_contain_text("Not verified")
    expect(result).to_contain_text("do not hash to the commitment")
    page.unroute(f"**/hands/{side_pot_hand}/")

"""Real Chromium: the table chat between two players and a spectator. A line reaches everyone as
text (a <script> line stays words on the page), a refusal shows next to the chat box, a player
can mute another, and the dealer's lines can be hidden."""

import json

import pytest

from tests.e2e.conftest import PASSWORD
from tests.e2e.test_table_alerts import MAKE_PLAYERS
from tests.e2e.test_table_play import expect, open_table
from tests.e2e.test_table_rules import shoot

pytestmark = pytest.mark.e2e

CHAT_PLAYERS = ["chat01", "chat02", "chat03"]
SCRIPT = "<script>window.__chat_xss = 1</script> nice hand"


@pytest.fixture(scope="module")
def chatters(site):
    setup = json.dumps({"players": CHAT_PLAYERS, "password": PASSWORD})
    site["manage"]("shell", "-c", MAKE_PLAYERS.format(setup=setup))
    return CHAT_PLAYERS


def say(page, text):
    page.locator("#chat-text").fill(text)
    page.locator("#chat-form").get_by_role("button", name="Send").click()


def test_two_players_and_a_spectator_chat_as_plain_text(site, chatters, sign_in, artifacts):
    first, second, watcher = (sign_in(name) for name in chatters)
    for page in (first, second, watcher):
        open_table(page, site, "showdown")

    say(first, SCRIPT)
    for page in (first, second, watcher):
        line = page.locator("#action-log li.log-chat").last
        expect(line).to_contain_text(f"chat01: {SCRIPT}")
        assert page.evaluate("() => window.__chat_xss") is None  # shown, never run
    expect(first.locator("#chat-text")).to_have_value("")

    # Refused before sending (nothing to say) and by the server (a flood): next to the chat box.
    say(second, "   ")
    expect(second.locator("#chat-problem")).to_have_text("Write something first.")
    for n in range(6):
        say(second, f"spam {n}")
    expect(second.locator("#chat-problem")).to_contain_text("At most 5 lines in 10 seconds")
    expect(second.locator("#console-error")).to_be_hidden()
    expect(watcher.locator("#action-log li.log-chat", has_text="spam 4")).to_have_count(1)
    expect(watcher.locator("#action-log li.log-chat", has_text="spam 5")).to_have_count(0)

    # The spectator mutes chat02: their lines go, and stay gone after a reload.
    watcher.locator("#action-log li.log-chat", has_text="spam 0").get_by_role(
        "button", name="Mute"
    ).click()
    expect(watcher.locator("#action-log li.log-chat:visible", has_text="spam")).to_have_count(0)
    watcher.reload()
    expect(watcher.locator("#action-log li.log-chat", has_text="nice hand")).to_be_visible()
    expect(watcher.locator("#action-log li.log-chat:visible", has_text="spam")).to_have_count(0)

    # Hiding the dealer's lines leaves only the chat.
    watcher.locator("#dealer-lines").uncheck()
    expect(watcher.locator("#action-log li:not(.log-chat):visible")).to_have_count(0)
    shoot(watcher, artifacts, "table-chat")
    assert not first.errors and not second.errors and not watcher.errors

"""docs/fairness.md through the site: the deck commitment made before the deal, the hand page's
reveal and its Verify, bin/verify-hand on the JSON and the PokerStars text, and the random
source that fails with no hand dealt and no other shuffle."""

import json
import logging
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from casino.accounts.models import LedgerEntry
from casino.accounts.selectors import wallet_balance
from casino.errors import DomainError
from holdem import engine
from holdem.engine.cards import new_deck
from holdem.engine.commitment import deck_commitment, verify
from holdem.models import HandRecord, Seat, SitGoTemplate, Tournament
from holdem.selectors.table_view import public_table
from holdem.services import table_act
from holdem.services.hand_start import SHUFFLE_RETRY_SECONDS
from holdem.services.tournaments import sit_and_go_open, tournament_register
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db
VERIFIER = Path(__file__).resolve().parents[2] / "bin" / "verify-hand"


def failing_source():
    """A random source that cannot answer (the settings name it in the tests below)."""
    raise OSError("the entropy device is gone")


class SourceFailingLater:
    """A source that answers at first and fails on its tenth draw (halfway through a shuffle)."""

    def __init__(self):
        self.draws = 0

    def randrange(self, stop):
        self.draws += 1
        if self.draws >= 10:
            raise OSError("read error on the entropy device")
        return 0

    def randbytes(self, n):
        return bytes(n)


def run_verifier(path_or_text, tmp_path, name="hand"):
    path = tmp_path / name
    path.write_text(path_or_text)
    done = subprocess.run(
        [sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True, timeout=30
    )
    return done.returncode, done.stdout + done.stderr


def test_a_hand_commits_to_its_deck_before_the_deal(seated, clock):
    table, users = seated(seats=(0, 1))
    clock.advance(31)
    table.refresh_from_db()
    record = HandRecord.objects.get(table=table)
    assert len(record.salts) == 52 and len(set(record.salts)) == 52
    assert all(len(salt) == 32 and int(salt, 16) >= 0 for salt in record.salts)
    assert record.commitment == deck_commitment(record.deck, record.salts)
    # The table shows it from the deal on: in its public view (the snapshot) and its row.
    assert table.commitment == record.commitment
    assert public_table(table)["commitment"] == record.commitment
    play_out(table, users)
    table.refresh_from_db()
    # Between hands it stays, with the number of the hand it belongs to.
    view = public_table(table)
    assert view["commitment"] == record.commitment and view["hand_id"] == record.pk


@pytest.fixture
def showdown(seated, clock):
    """A heads-up hand checked and called down to the showdown: (its record, the players)."""
    table, users = seated(seats=(0, 1))
    clock.advance(31)
    play_out(table, users, choose=lambda legal: "check" if "check" in legal.actions else "call")
    return HandRecord.objects.get(table=table), users


def test_the_hand_page_reveals_what_the_viewer_may_see_and_verifies(showdown, client, tmp_path):
    record, users = showdown
    client.force_login(users[0])
    page = client.get(reverse("hand_detail", args=[record.pk])).content.decode()
    assert record.commitment in page and 'id="verify-deck"' in page and "hand-fairness" in page
    data = client.get(reverse("hand_json", args=[record.pk])).json()
    fairness = data["fairness"]
    assert fairness["commitment"] == record.commitment and fairness["board"] == record.board
    expected = {}
    for key, position in fairness["positions"].items():
        owner, index = key.split(":")
        cards = fairness["board"] if owner == "board" else fairness["holes"][owner]
        expected[position] = cards[int(index)]
    verdict = verify(fairness["commitment"], fairness["cards"], expected)
    assert verdict.ok, verdict.problems
    assert verdict.revealed == 5 + 2 * len(fairness["holes"])
    # Burn cards and the undealt stub are never revealed.
    for position in (4, 8, 10):  # two players: burns at 4, 8 and 10
        assert set(fairness["cards"][position]) == {"position", "leaf"}
        assert f"\"{record.deck[position]}\"" not in json.dumps(data)

    code, out = run_verifier(json.dumps(data), tmp_path, "hand.json")
    assert code == 0 and out.startswith("verified: "), out
    text = client.get(reverse("hand_download", args=[record.pk])).content.decode()
    assert f"Commitment {record.commitment} (deck-sha256-v1)" in text
    code, out = run_verifier(text, tmp_path, "hand.txt")
    assert code == 0, out


def test_the_verifier_names_a_tampered_card_and_a_tampered_commitment(showdown, client, tmp_path):
    record, users = showdown
    client.force_login(users[1])
    data = client.get(reverse("hand_json", args=[record.pk])).json()
    river = data["fairness"]["positions"]["board:4"]
    swapped = record.deck[40]  # a card never dealt
    tampered = json.loads(json.dumps(data))
    tampered["fairness"]["cards"][river]["card"] = swapped
    tampered["fairness"]["board"][4] = swapped
    code, out = run_verifier(json.dumps(tampered), tmp_path, "card.json")
    assert code == 1 and "do not hash to the commitment" in out, out

    forged = json.loads(json.dumps(data))
    commitment = forged["fairness"]["commitment"]
    forged["fairness"]["commitment"] = ("f" if commitment[0] != "f" else "0") + commitment[1:]
    code, out = run_verifier(json.dumps(forged), tmp_path, "commitment.json")
    assert code == 1 and "NOT VERIFIED" in out, out

    # The text's board changed after the fact: the reveal no longer holds it at the river.
    text = client.get(reverse("hand_download", args=[record.pk])).content.decode()
    board = " ".join(record.board)
    changed = text.replace(f"Board [{board}]", f"Board [{' '.join([*record.board[:4], swapped])}]")
    code, out = run_verifier(changed, tmp_path, "changed.txt")
    assert code == 1 and f"{swapped} should be at deck position {river}" in out, out
    code, out = run_verifier("not a hand at all", tmp_path, "junk.txt")
    assert code == 2 and "cannot read the hand" in out


def test_a_folded_hand_stays_hidden_from_the_other_player(seated, clock, client):
    """RULES.md 4: folded cards stay hidden; the reveal gives their positions as leaves only."""
    table, users = seated(seats=(0, 1))
    clock.advance(31)
    state = current(table)
    folder = state.to_act
    table_act(table_id=table.pk, user=users[folder], action="fold")
    record = HandRecord.objects.get(table=table)
    other = 1 - folder
    client.force_login(users[other])
    data = client.get(reverse("hand_json", args=[record.pk])).json()
    fairness = data["fairness"]
    folded_cards = set(current_hole(record, folder))
    assert not folded_cards & set(json.dumps(data).replace('"', " ").split())
    assert set(fairness["holes"]) == {str(other)}  # the viewer's own cards only
    assert verify(fairness["commitment"], fairness["cards"]).ok
    assert sum("card" in entry for entry in fairness["cards"]) == 2


def current_hole(record, seat):
    return engine.state_from_json(record.final_state).player(seat).hole


def test_a_failing_random_source_deals_nothing_and_the_table_waits(seated, clock, settings, caplog):
    """docs/fairness.md: no hand starts, the table says so and tries again, an error is logged,
    and nothing else shuffles; once the source answers, the next hand is dealt."""
    table, users = seated(seats=(0, 1))
    balances = {seat: wallet_balance(user=user) for seat, user in users.items()}
    stacks = dict(Seat.objects.filter(table=table).values_list("number", "stack"))
    ledger = LedgerEntry.objects.count()
    settings.CASINO_RANDOM_SOURCE = "tests.holdem.test_fairness.failing_source"
    with caplog.at_level(logging.ERROR):
        clock.advance(31)
    table.refresh_from_db()
    assert not HandRecord.objects.filter(table=table).exists() and not table.in_hand
    assert table.next_hand_at == clock.now + timedelta(seconds=SHUFFLE_RETRY_SECONDS)
    assert any(
        "random source" in r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR
    )
    assert dict(Seat.objects.filter(table=table).values_list("number", "stack")) == stacks
    assert {s: wallet_balance(user=u) for s, u in users.items()} == balances
    assert LedgerEntry.objects.count() == ledger
    clock.advance(SHUFFLE_RETRY_SECONDS + 1)  # still failing: still no hand
    assert not HandRecord.objects.filter(table=table).exists()

    settings.CASINO_RANDOM_SOURCE = "holdem.services.shuffle.system_random"
    clock.advance(SHUFFLE_RETRY_SECONDS + 1)
    assert HandRecord.objects.filter(table=table).count() == 1
    chips_everywhere()


def test_a_source_failing_halfway_through_the_shuffle_deals_nothing(seated, clock, settings):
    table, _users = seated(seats=(0, 1))
    later = SourceFailingLater()
    settings.CASINO_RANDOM_SOURCE = "tests.holdem.test_fairness.SOURCE_FAILING_LATER"
    globals()["SOURCE_FAILING_LATER"] = lambda: later
    clock.advance(31)
    assert later.draws >= 10
    assert not HandRecord.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert table.hand_state == "" and table.next_hand_at is not None


def test_a_sit_and_go_whose_seats_cannot_be_drawn_refuses_the_last_seat(make_player, settings):
    template = SitGoTemplate.objects.create(
        name="Fair draw", seats=2, buy_in=1_000, fee=100, starting_stack=500, level_seconds=180
    )
    tournament = sit_and_go_open(template)
    first, last = make_player(), make_player()
    tournament_register(tournament_id=tournament.pk, user=first)
    before = wallet_balance(user=last)
    settings.CASINO_RANDOM_SOURCE = "tests.holdem.test_fairness.failing_source"
    with pytest.raises(DomainError) as refused:
        tournament_register(tournament_id=tournament.pk, user=last)
    assert refused.value.code == "shuffle_unavailable"
    assert "random source" in refused.value.message
    assert wallet_balance(user=last) == before
    assert tournament.entries.count() == 1
    assert Tournament.objects.get(pk=tournament.pk).started_at is None
    chips_everywhere()


def test_shuffle_dump_writes_decks_from_the_dealers_source(tmp_path, settings):
    out = tmp_path / "decks.txt"
    call_command("shuffle_dump", "200", "--output", str(out))
    decks = [line.split() for line in out.read_text().splitlines()]
    assert len(decks) == 200 and all(sorted(deck) == sorted(new_deck()) for deck in decks)
    assert len({tuple(deck) for deck in decks}) == 200
    call_command("shuffle_dump", "3", "--indexes", "--output", str(out))
    rows = [[int(n) for n in line.split(",")] for line in out.read_text().splitlines()]
    assert len(rows) == 3 and all(sorted(row) == list(range(52)) for row in rows)

    settings.CASINO_RANDOM_SOURCE = "tests.holdem.test_fairness.failing_source"
    with pytest.raises(CommandError, match="random source"):
        call_command("shuffle_dump", "5", "--output", str(tmp_path / "none.txt"))
    assert (tmp_path / "none.txt").read_text() == ""
    with pytest.raises(CommandError, match="one shuffle or more"):
        call_command("shuffle_dump", "0")

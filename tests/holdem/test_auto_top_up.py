"""RULES.md 2, auto top-up: before each hand of a cash game a short stack is brought back to the
player's target (the room's maximum buy-in, or big blinds held within the buy-in range) from the
wallet, through the top-up's own path; never in a tournament, never beyond the wallet; every
chip kept. The setting is the player's, saved with a clear refusal for each bad value."""

import json

import pytest

from casino.accounts.models import LedgerEntry, LedgerKind, Preferences
from casino.accounts.preferences import preferences_for
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from casino.errors import DomainError
from holdem.models import Seat, SitGoTemplate, Table
from holdem.selectors.snapshot import table_snapshot
from holdem.services import auto_top_up_set, table_sit_out
from holdem.services.tournaments import sit_and_go_open, tournament_register
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard(monkeypatch):
    """Every frame queued for after commit, with its group, in order."""
    frames = []

    def keep(messages):
        frames.extend((group, json.loads(m["text"])) for group, m in messages)

    for module in ("notify", "auto_top_up"):
        monkeypatch.setattr(f"holdem.services.{module}.send_on_commit", keep)
    return frames


def stack_of(user):
    return Seat.objects.get(user=user).stack


def test_a_short_stack_is_topped_up_to_the_rooms_maximum_before_the_hand(seated, clock, heard):
    # RULES.md 2: 5,000 is below half of the 20,000 maximum: 15,000 come from the wallet.
    table, users = seated("nl50", seats=(0, 1), buy_in=5_000)
    alice = users[0]
    auto_top_up_set(user=alice, enabled=True, below_percent=50, to_big_blinds=None)
    wallet = wallet_balance(user=alice)
    wallet_adjust(user=alice, amount=20_000, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="test")
    clock.advance(31)
    state = current(table)
    assert state.player(0).stack + state.player(0).committed == 20_000
    assert stack_of(users[1]) == 0 and state.player(1).stack + state.player(1).committed == 5_000
    assert wallet_balance(user=alice) == wallet + 20_000 - 15_000
    line = LedgerEntry.objects.filter(user=alice).order_by("-id").first()
    assert line.kind == LedgerKind.BUY_IN and line.amount == -15_000
    assert line.reason.startswith("Auto top-up at")
    events = [f["event"] for g, f in heard if g == f"table.{table.pk}" and f["type"] == "event"]
    topped = [e for e in events if e["kind"] == "topped_up"]
    assert topped == [
        {
            "kind": "topped_up",
            "seat": 0,
            "username": alice.username,
            "amount": 15_000,
            "auto": True,
            "engine": [],
        }
    ]
    # The top-up is told before the deal.
    assert events.index(topped[0]) < next(i for i, e in enumerate(events) if e["engine"])
    chips_everywhere()


@pytest.mark.parametrize(
    ("below", "to_bb", "stack", "after"),
    [
        (40, None, 9_000, 9_000),  # not below 40 percent of 20,000: nothing
        (50, 100, 4_000, 10_000),  # 100 big blinds: 10,000, and 4,000 is under 5,000
        (50, 100, 6_000, 6_000),  # over half of 10,000: nothing
        (100, 100, 9_999, 10_000),  # any shortfall at 100 percent
        (50, 1_000, 5_000, 20_000),  # 100,000 held at the room's maximum
        (50, 10, 1_000, 2_000),  # 10 big blinds is 1,000: held at the 2,000 minimum
    ],
)
def test_the_amount_follows_the_threshold_and_the_target(seated, clock, below, to_bb, stack, after):
    # RULES.md 2: top up when the stack is below `below` percent of the target, to the target.
    table, users = seated("nl50", seats=(0, 1), stacks=(max(stack, 2_000), 5_000))
    if stack < 2_000:  # under the minimum buy-in: the room's minimum went up since
        Table.objects.filter(pk=table.pk).update(min_buy_in=2_000)
    alice = users[0]
    wallet_adjust(user=alice, amount=20_000, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="test")
    auto_top_up_set(user=alice, enabled=True, below_percent=below, to_big_blinds=to_bb)
    before = wallet_balance(user=alice)
    start = stack_of(alice)
    clock.advance(31)
    player = current(table).player(0)
    assert player.stack + player.committed == (after if start == stack else start)
    assert wallet_balance(user=alice) == before - (player.stack + player.committed - start)
    chips_everywhere()


def test_a_short_wallet_adds_what_it_has(seated, clock):
    # RULES.md 2: never beyond the wallet; 5,000 + 300 is over the 2,000 minimum.
    table, users = seated("nl50", seats=(0, 1), buy_in=5_000)
    alice = users[0]
    balance = wallet_balance(user=alice)
    wallet_adjust(user=alice, amount=300 - balance, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="t")
    auto_top_up_set(user=alice, enabled=True, below_percent=50, to_big_blinds=None)
    clock.advance(31)
    player = current(table).player(0)
    assert player.stack + player.committed == 5_300
    assert wallet_balance(user=alice) == 0
    chips_everywhere()


def test_a_wallet_that_cannot_reach_the_minimum_skips_with_a_notice(seated, clock, heard):
    # RULES.md 2: the stack would stay under the room's minimum: nothing is added, the player
    # alone is told.
    table, users = seated("nl50", seats=(0, 1), buy_in=2_000)
    Table.objects.filter(pk=table.pk).update(min_buy_in=5_000)  # the room changed since
    alice = users[0]
    balance = wallet_balance(user=alice)
    wallet_adjust(user=alice, amount=100 - balance, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="t")
    auto_top_up_set(user=alice, enabled=True, below_percent=50, to_big_blinds=None)
    heard.clear()
    clock.advance(31)
    player = current(table).player(0)
    assert player.stack + player.committed == 2_000
    assert wallet_balance(user=alice) == 100
    notices = [(g, f) for g, f in heard if f.get("type") == "notice"]
    assert notices == [
        (
            f"table.{table.pk}.user.{alice.pk}",
            {
                "type": "notice",
                "code": "auto_top_up_skipped",
                "message": "Auto top-up skipped: your wallet has 100 chips, not enough to bring "
                "your stack to the room's minimum buy-in of 5,000.",
            },
        )
    ]
    chips_everywhere()


def test_no_target_in_a_room_without_a_maximum_unless_in_big_blinds(seated, clock):
    # RULES.md 2: fl20 has no maximum buy-in: "the room's maximum" tops up nothing there; a
    # target in big blinds (20 each) does.
    table, users = seated("fl20", seats=(0, 1), buy_in=200)
    auto_top_up_set(user=users[0], enabled=True, below_percent=50, to_big_blinds=None)
    auto_top_up_set(user=users[1], enabled=True, below_percent=50, to_big_blinds=50)
    clock.advance(31)
    state = current(table)
    assert state.player(0).stack + state.player(0).committed == 200
    assert state.player(1).stack + state.player(1).committed == 1_000
    chips_everywhere()


def test_a_seat_sitting_out_or_with_auto_top_up_off_is_left_alone(seated, clock):
    table, users = seated("nl50", seats=(0, 1, 2), buy_in=2_000)
    auto_top_up_set(user=users[0], enabled=True, below_percent=50, to_big_blinds=None)
    auto_top_up_set(user=users[0], enabled=False, below_percent=50, to_big_blinds=None)
    auto_top_up_set(user=users[1], enabled=True, below_percent=50, to_big_blinds=None)
    table_sit_out(table_id=table.pk, user=users[1])
    clock.advance(31)
    assert current(table).player(0).stack + current(table).player(0).committed == 2_000
    assert stack_of(users[1]) == 2_000
    chips_everywhere()


def test_no_auto_top_up_in_a_tournament(make_player, clock):
    # RULES.md 8: tournament chips come only with the starting stack.
    template = SitGoTemplate.objects.create(
        name="Tops",
        seats=2,
        buy_in=1_000,
        fee=100,
        starting_stack=500,
        level_seconds=180,
        time_bank_seconds=0,
    )
    tournament = sit_and_go_open(template)
    players = [make_player() for _ in range(2)]
    for player in players:
        auto_top_up_set(user=player, enabled=True, below_percent=100, to_big_blinds=1_000)
        tournament_register(tournament_id=tournament.pk, user=player)
    balances = [wallet_balance(user=p) for p in players]
    clock.advance(11)
    state = current(tournament.table)
    assert state is not None
    assert sum(p.stack + p.committed for p in state.players) == 1_000
    assert [wallet_balance(user=p) for p in players] == balances
    chips_everywhere()


def test_the_setting_is_saved_shown_in_the_snapshot_and_told_to_every_socket(seated, heard):
    table, users = seated("nl50", seats=(0, 1))
    alice = users[0]
    heard.clear()
    assert table_snapshot(table.pk, alice)["auto_top_up"] == {
        "enabled": False,
        "below_percent": 50,
        "to_big_blinds": None,
    }
    saved = auto_top_up_set(user=alice, enabled=True, below_percent=70, to_big_blinds=150)
    assert saved == {"enabled": True, "below_percent": 70, "to_big_blinds": 150}
    assert table_snapshot(table.pk, alice)["auto_top_up"] == saved
    assert table_snapshot(table.pk, users[1])["auto_top_up"]["enabled"] is False
    assert heard == [(f"user.{alice.pk}", {"type": "auto_top_up", "settings": saved})]


@pytest.mark.parametrize(
    ("below", "to_bb", "code"),
    [
        (0, None, "bad_top_up_threshold"),
        (101, None, "bad_top_up_threshold"),
        (50, 9, "bad_top_up_target"),
        (50, 1_001, "bad_top_up_target"),
        (50, 0, "bad_top_up_target"),
    ],
)
def test_a_bad_setting_is_refused_clearly_and_changes_nothing(make_player, below, to_bb, code):
    alice = make_player()
    auto_top_up_set(user=alice, enabled=False, below_percent=40, to_big_blinds=200)
    with pytest.raises(DomainError) as refused:
        auto_top_up_set(user=alice, enabled=True, below_percent=below, to_big_blinds=to_bb)
    assert refused.value.code == code and refused.value.message
    kept = preferences_for(alice)
    assert (kept.auto_top_up, kept.top_up_below_percent, kept.top_up_to_bb) == (False, 40, 200)
    assert Preferences.objects.filter(user=alice).count() == 1

"""A player's statistics (holdem/selectors/stats.py) over hands played through the services,
with every action chosen so that each number is known before the hands are dealt."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from casino.accounts.models import LedgerKind
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from holdem.engine.cards import new_deck
from holdem.models import HandRecord, Seat
from holdem.selectors.stats import CHART_MAX_POINTS, ChipPoint, chip_chart, player_stats
from holdem.services import game_kinds, table_act
from holdem.services import hand_start as hand_service
from tests.holdem.conftest import chips_everywhere, current

pytestmark = pytest.mark.django_db

ACES, SEVEN_DEUCE = ["Ah", "Ad"], ["7c", "2d"]
BOARD = ["As", "Kd", "9h", "4c", "3s"]  # aces make a set; seven-deuce makes nothing


def dealing(seat_1: list[str], seat_0: list[str]) -> list[str]:
    """A heads-up deck with the button on seat 0: hole cards go to seat 1 first, then the flop,
    turn and river of BOARD, each after a burn card."""
    used = {*seat_1, *seat_0, *BOARD}
    spare = [card for card in new_deck() if card not in used]
    return [
        seat_1[0],
        seat_0[0],
        seat_1[1],
        seat_0[1],
        spare[0],
        *BOARD[:3],
        spare[1],
        BOARD[3],
        spare[2],
        BOARD[4],
        *spare[3:],
    ]


@pytest.fixture
def heads_up(seated, clock, monkeypatch):
    """Seat 0 (5,000 chips) against seat 1 (1,000), the button always on seat 0: seat 0 posts
    the small blind and acts first before the flop, seat 1 first after it (RULES.md 3)."""

    monkeypatch.setattr(game_kinds, "next_button", lambda previous, dealt, rng: 0)
    table, users = seated("nl50", seats=(0, 1), stacks=[5_000, 1_000], min_buy_in=500)

    def play(deck, moves):
        monkeypatch.setattr(hand_service, "hand_deck", lambda: list(deck))
        clock.advance(31)  # the countdown runs out: the hand is dealt
        for seat, action, amount in moves:
            state = current(table)
            assert state is not None and state.to_act == seat, (seat, action, state)
            table_act(table_id=table.pk, user=users[seat], action=action, amount=amount)
        assert current(table) is None, "the hand should be over"
        return HandRecord.objects.filter(table=table).order_by("-id").first()

    return users, play


CHECK_DOWN = [(1, "check", None), (0, "check", None)] * 3  # flop, turn and river


def play_six_hands(play) -> list[HandRecord]:
    """Seat 0 starts with 5,000 and seat 1 with 1,000; each hand says what it changes."""
    return [
        # 1. Seat 0 raises, seat 1 calls; checked down, the set of aces wins 600: 0 +300.
        play(dealing(SEVEN_DEUCE, ACES), [(0, "raise", 300), (1, "call", None), *CHECK_DOWN]),
        # 2. Seat 0 folds the small blind: seat 1 wins without acting (a walk): 1 +50.
        play(dealing(SEVEN_DEUCE, ACES), [(0, "fold", None)]),
        # 3. Seat 0 limps, seat 1 checks its option, bets the flop, seat 0 folds: 1 +100.
        play(
            dealing(SEVEN_DEUCE, ACES),
            [(0, "call", None), (1, "check", None), (1, "bet", 200), (0, "fold", None)],
        ),
        # 4. Seat 0 raises, seat 1 re-raises all in for 850, seat 0 calls; seat 1's aces win
        #    the 1,700 pot: 1 +850.
        play(
            dealing(ACES, SEVEN_DEUCE),
            [(0, "raise", 300), (1, "all_in", None), (0, "call", None)],
        ),
        # 5. Seat 0 moves all in, seat 1 folds its big blind: 0 +100.
        play(dealing(SEVEN_DEUCE, ACES), [(0, "all_in", None), (1, "fold", None)]),
        # 6. Seat 0 raises to 3,000; seat 1 calls all in for 1,600, less than the bet (no raise),
        #    and loses the 3,200 pot: 0 +1,600, and seat 1 is out of chips.
        play(dealing(SEVEN_DEUCE, ACES), [(0, "raise", 3_000), (1, "all_in", None)]),
    ]


def test_the_numbers_of_six_known_hands_for_both_players(heads_up):
    users, play = heads_up
    records = play_six_hands(play)
    nets = [{p["seat"]: p["net"] for p in record.players} for record in records]
    assert [n[0] for n in nets] == [300, -50, -100, -850, 100, 1_600]

    first = player_stats(users[0])
    assert (first.hands, first.won, first.net) == (6, 3, 1_000)
    # Chips in by choice in every hand but the fold of hand 2; raised in hands 1, 4, 5 and 6.
    assert (first.vpip_hands, first.pfr_hands) == (5, 4)
    assert round(first.vpip, 1) == 83.3 and round(first.pfr, 1) == 66.7
    # Showdowns in hands 1, 4 and 6; won 1 and 6.
    assert (first.showdowns, first.showdowns_won) == (3, 2)
    assert first.went_to_showdown == 50 and round(first.won_at_showdown, 1) == 66.7
    assert first.biggest_pot == 3_200  # hand 6: 1,600 each; the uncalled 1,400 came back

    second = player_stats(users[1])
    assert (second.hands, second.won, second.net) == (6, 3, -1_000)
    # The big blind of hand 2 and the check of hand 3 are not voluntary; the short all-in of
    # hand 6 is a call, the all-in of hand 4 a raise.
    assert (second.vpip_hands, second.pfr_hands) == (3, 1)
    assert (second.showdowns, second.showdowns_won) == (3, 1)
    assert second.biggest_pot == 1_700
    assert not Seat.objects.filter(user=users[1]).exists()  # busted in hand 6
    chips_everywhere()


def test_the_chip_history_adds_the_grant_and_every_hands_net(heads_up, settings):
    users, play = heads_up
    play_six_hands(play)
    history = player_stats(users[0]).history
    # Buying in moved 5,000 to the seat but lost nothing: it is not in the history.
    assert [p.chips for p in history] == [
        settings.CASINO_STARTING_CHIPS + change for change in (0, 300, 250, 150, -700, -600, 1_000)
    ]
    seat = Seat.objects.get(user=users[0])
    assert history[-1].chips == wallet_balance(user=users[0]) + seat.stack
    # Free chips and an admin's adjustment change what the player owns; they are drawn too.
    wallet_adjust(user=users[1], amount=500, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="gift")
    assert player_stats(users[1]).history[-1].chips == settings.CASINO_STARTING_CHIPS - 500


def test_stats_take_three_queries_however_many_hands(heads_up, django_assert_num_queries):
    users, play = heads_up
    play_six_hands(play)
    with django_assert_num_queries(3):
        player_stats(users[0])


def test_a_player_without_hands_has_no_rates(make_player):
    stats = player_stats(make_player())
    assert (stats.hands, stats.net, stats.vpip, stats.won_at_showdown) == (0, 0, None, None)
    assert [p.chips for p in stats.history] == [10_000]  # the welcome grant


def test_a_hand_still_being_played_does_not_count(seated, clock):
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    assert current(table) is not None
    stats = player_stats(users[0])
    assert (stats.hands, stats.vpip_hands) == (0, 0)


def test_the_statistics_page_shows_the_numbers_with_separators_and_the_chart(heads_up, client):
    users, play = heads_up
    play_six_hands(play)
    client.force_login(users[0])
    page = client.get(reverse("player_stats")).content.decode()
    assert 'data-stat="hands">6<' in page
    assert 'data-stat="net" class="pos">+1,000<' in page
    assert 'data-stat="vpip">83%<' in page and 'data-stat="pfr">67%<' in page
    assert 'data-stat="showdown">50%<' in page and 'data-stat="showdown-won">67%<' in page
    assert 'data-stat="biggest-pot">3,200<' in page
    assert (
        page.count("<polyline") == 1
        and "<script" not in page.split("<main>")[1].split("</main>")[0]
    )
    assert "11,000" in page  # the chips owned now, under the chart
    client.force_login(users[1])
    page = client.get(reverse("player_stats")).content.decode()
    assert 'data-stat="net" class="neg">-1,000<' in page


def test_the_statistics_page_is_linked_from_the_profile_and_needs_a_sign_in(client, make_player):
    assert client.get(reverse("player_stats")).status_code == 302
    client.force_login(make_player())
    profile = client.get(reverse("profile")).content.decode()
    assert f'href="{reverse("player_stats")}"' in profile
    page = client.get(reverse("player_stats")).content.decode()
    assert "No finished hands yet" in page


def test_the_chart_scales_the_history_into_its_box():
    now = timezone.now()
    history = tuple(ChipPoint(at=now, chips=chips) for chips in (1_000, 3_000, 2_000))
    chart = chip_chart(history)
    assert (chart.low, chart.high, chart.count) == (1_000, 3_000, 3)
    xs_ys = [tuple(map(float, pair.split(","))) for pair in chart.points.split()]
    assert [x for x, _ in xs_ys] == [0, chart.width / 2, chart.width]
    top, bottom = 8, chart.height - 8
    assert [y for _, y in xs_ys] == [bottom, top, (top + bottom) / 2]
    assert chart.area.startswith(f"0,{chart.height} ")


def test_the_chart_of_one_point_is_a_flat_line_and_a_long_history_is_thinned():
    now = timezone.now()
    flat = chip_chart((ChipPoint(at=now, chips=10_000),))
    assert flat.points == f"0.0,{flat.height / 2:.1f} {flat.width}.0,{flat.height / 2:.1f}"
    assert chip_chart(()) is None
    long = tuple(
        ChipPoint(at=now + timedelta(minutes=i), chips=i * (-1) ** i) for i in range(5_000)
    )
    chart = chip_chart(long)
    assert len(chart.points.split()) == CHART_MAX_POINTS
    assert (chart.first, chart.last, chart.count) == (long[0], long[-1], 5_000)
    # The extremes come from the whole history, not only from the points drawn.
    assert (chart.low, chart.high) == (-4_999, 4_998)

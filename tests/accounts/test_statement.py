"""The monthly statement (RULES.md 10): a month of real play, its figures against the ledger's
lines and the hands' records, the CSV against the page, month boundaries in the site's time
zone, and months that are not to be had."""

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db.models import Sum
from django.urls import reverse

from casino.accounts.models import LedgerEntry, LedgerKind, SignIn, User
from casino.accounts.selectors import wallet_balance
from casino.accounts.services import wallet_adjust
from casino.accounts.statement import Month, ledger_month, month_parse
from casino.errors import DomainError
from holdem.models import HandParticipant, HandRecord
from holdem.selectors.statement import SITTING_GAP, account_statement
from holdem.services import table_leave, table_sit, wallet_refill
from holdem.services.tournaments import tournament_register, tournament_unregister
from tests.holdem.conftest import chips_everywhere, play_out
from tests.holdem.test_sit_and_go import play_to_the_end

pytestmark = pytest.mark.django_db

MARCH = Month(2026, 3)


def joined(*users, at):
    """Accounts opened at `at` (the test clock does not reach the user model's own default)."""
    User.objects.filter(pk__in=[u.pk for u in users]).update(date_joined=at)
    for user in users:
        user.refresh_from_db()


def sign_in(client, user):
    client.post(reverse("logout"))
    response = client.post(
        reverse("login"), {"username": user.username, "password": "pw-for-tests-123"}
    )
    assert response.status_code == 302


@pytest.fixture
def march_of_play(clock, seated, sit_and_go, make_player, client):
    """A month of real activity for one player: two sign-ins, a cash table (sit, three hands,
    cash out), free chips once broke, a Sit & Go played to its end, and a registration taken
    back. Returns the player."""
    clock.now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    table, users = seated("nl50", seats=(0, 1), buy_in=5_000)
    player, other = users[0], users[1]
    joined(player, other, at=clock.now - timedelta(days=1))
    sign_in(client, player)
    for _ in range(3):
        clock.advance(31)
        play_out(table, users)
    table_leave(table_id=table.pk, user=player)
    table_leave(table_id=table.pk, user=other)
    clock.advance(600)
    # Broke: the chips were lost (a staff adjustment stands for it), then free chips.
    wallet_adjust(
        user=player,
        amount=100 - wallet_balance(user=player),
        kind=LedgerKind.ADMIN_ADJUSTMENT,
        reason="lost at another site's table",
    )
    wallet_refill(user=player)
    tournament = sit_and_go(seats=2, starting_stack=300, level_seconds=60)
    rival = make_player()
    tournament_register(tournament_id=tournament.pk, user=player)
    tournament_register(tournament_id=tournament.pk, user=rival)
    play_to_the_end(tournament, clock)
    taken_back = sit_and_go(seats=3)
    tournament_register(tournament_id=taken_back.pk, user=player)
    tournament_unregister(tournament_id=taken_back.pk, user=player)
    clock.advance(3600)
    sign_in(client, player)
    chips_everywhere()
    return player


def test_a_months_figures_are_the_ledgers_lines_by_kind_and_its_hands(march_of_play, clock):
    """RULES.md 10: each kind's total is the sum of the month's ledger lines of that kind, the
    opening balance plus all of them is the closing one, and the hands are those the player was
    dealt into."""
    player = march_of_play
    statement = account_statement(user=player, month=MARCH)
    lines = LedgerEntry.objects.filter(
        user=player, created_at__gte=MARCH.start, created_at__lt=MARCH.end
    )
    by_kind = {k.kind: k for k in statement.ledger.kinds}
    for kind in LedgerKind.values:
        of_kind = lines.filter(kind=kind)
        assert by_kind[kind].lines == of_kind.count(), kind
        assert by_kind[kind].chips == (of_kind.aggregate(s=Sum("amount"))["s"] or 0), kind
    # Every kind a month of real play brings shows with lines of its own.
    for kind in (
        LedgerKind.GRANT,
        LedgerKind.BUY_IN,
        LedgerKind.CASH_OUT,
        LedgerKind.REFILL,
        LedgerKind.ADMIN_ADJUSTMENT,
        LedgerKind.TOURNAMENT_BUY_IN,
        LedgerKind.TOURNAMENT_FEE,
        LedgerKind.TOURNAMENT_REFUND,
    ):
        assert by_kind[kind].lines > 0, kind
    assert statement.ledger.lines == lines.count()
    assert statement.ledger.net == lines.aggregate(s=Sum("amount"))["s"]
    assert statement.ledger.opening == 0  # the account was opened this month
    assert statement.ledger.closing == statement.ledger.opening + statement.ledger.net
    assert statement.ledger.closing == wallet_balance(user=player)
    assert statement.ledger.sign_ins == 2 == SignIn.objects.filter(user=player).count()
    hands = HandRecord.objects.filter(participants__user=player, ended_at__isnull=False)
    assert (
        statement.play.hands == hands.count() == HandParticipant.objects.filter(user=player).count()
    )
    assert statement.play.hands >= 4  # three at the cash table, at least one in the Sit & Go
    # Time played: at least every hand from its start to its end, at most from the first
    # hand's start to the last one's end.
    spans = list(hands.order_by("started_at").values_list("started_at", "ended_at"))
    in_hands = sum((end - start for start, end in spans), timedelta())
    assert in_hands.total_seconds() <= statement.play.seconds
    assert statement.play.seconds <= (spans[-1][1] - spans[0][0]).total_seconds()


def test_the_month_before_and_after_hold_nothing_of_it(march_of_play, clock):
    player = march_of_play
    clock.now = datetime(2026, 4, 2, 9, 0, tzinfo=UTC)
    april = account_statement(user=player, month=Month(2026, 4))
    assert april.ledger.opening == april.ledger.closing == wallet_balance(user=player)
    assert april.ledger.lines == 0 and april.play.hands == 0 and april.ledger.sign_ins == 0


def test_time_played_counts_short_waits_between_hands_and_not_long_ones(seated, clock):
    """docs/decisions.md "Your account": hands less than SITTING_GAP apart are one sitting."""
    clock.now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    table, users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    play_out(table, users)
    clock.advance(31)
    play_out(table, users)
    first, second = HandRecord.objects.order_by("number")
    gap = second.started_at - first.ended_at
    assert timedelta() <= gap <= SITTING_GAP
    together = account_statement(user=users[0], month=MARCH).play.seconds
    assert together == int((second.ended_at - first.started_at).total_seconds())
    # A third hand long after: only its own length is added.
    table_leave(table_id=table.pk, user=users[1])
    clock.advance(SITTING_GAP.total_seconds() + 60)
    table_sit(table_id=table.pk, user=users[1], seat=1, buy_in=5_000)
    clock.advance(31)
    play_out(table, users)
    third = HandRecord.objects.order_by("number").last()
    apart = account_statement(user=users[0], month=MARCH).play.seconds
    assert apart == together + int((third.ended_at - third.started_at).total_seconds())


def test_month_boundaries_are_the_site_time_zones(settings, make_player, clock):
    """RULES.md 10: a month is a calendar month where the site is (settings.TIME_ZONE)."""
    settings.TIME_ZONE = "Europe/Paris"  # UTC+2 on 31 March 2026 (summer time)
    clock.now = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
    player = make_player()
    joined(player, at=clock.now)
    clock.now = datetime(2026, 3, 31, 21, 30, tzinfo=UTC)  # 23:30 in Paris: still March
    wallet_adjust(user=player, amount=7, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="late March")
    clock.now = datetime(2026, 3, 31, 22, 30, tzinfo=UTC)  # 00:30 on 1 April in Paris
    wallet_adjust(user=player, amount=11, kind=LedgerKind.ADMIN_ADJUSTMENT, reason="early April")
    march, april = (
        ledger_month(user=player, month=MARCH),
        ledger_month(user=player, month=Month(2026, 4)),
    )
    adjustments = {k.kind: k.chips for k in march.kinds}[LedgerKind.ADMIN_ADJUSTMENT]
    assert adjustments == 7
    assert {k.kind: k.chips for k in april.kinds}[LedgerKind.ADMIN_ADJUSTMENT] == 11
    assert march.closing == april.opening == 10_007
    assert april.closing == 10_018


def figures_of_page(html: str) -> list[tuple[str, str, str]]:
    """(row key, quantity, chips) of each figure the page shows, in order."""
    return re.findall(r'data-row="([^"]+)" data-quantity="([^"]*)" data-chips="([^"]*)"', html)


def test_the_csv_file_holds_the_figures_the_page_shows(client, march_of_play, clock):
    player = march_of_play
    client.force_login(player)
    page = client.get(reverse("statement_month", kwargs={"month": "2026-03"}))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Statement for March 2026" in html
    assert reverse("statement_csv", kwargs={"month": "2026-03"}) in html
    download = client.get(reverse("statement_csv", kwargs={"month": "2026-03"}))
    assert download.status_code == 200
    assert download["Content-Type"].startswith("text/csv")
    assert 'filename="statement-2026-03.csv"' in download["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert rows[0] == ["month", "item", "quantity", "chips"]
    statement = account_statement(user=player, month=MARCH)
    assert [r[1] for r in rows[1:]] == [row.item for row in statement.rows]
    from_csv = [(q, c) for _, _, q, c in rows[1:]]
    from_page = [(q, c) for _, q, c in figures_of_page(html)]
    assert from_csv == from_page
    assert {r[0] for r in rows[1:]} == {"2026-03"}
    # The page's own figures: the closing balance is the wallet's.
    assert {key: chips for key, _, chips in figures_of_page(html)}["closing"] == str(
        wallet_balance(user=player)
    )


def test_the_current_month_is_shown_by_default_and_the_picker_lists_the_accounts_months(
    client, make_player, clock
):
    clock.now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    player = make_player()
    joined(player, at=datetime(2026, 1, 20, tzinfo=UTC))
    client.force_login(player)
    html = client.get(reverse("statement")).content.decode()
    assert "Statement for March 2026" in html
    options = re.findall(r'<option value="([^"]+)"', html)
    assert options == ["2026-03", "2026-02", "2026-01"]
    picked = client.get(reverse("statement"), {"month": "2026-02"})
    assert picked.status_code == 302
    assert picked["Location"] == reverse("statement_month", kwargs={"month": "2026-02"})


def test_nobody_reads_another_players_statement(client, march_of_play, make_player, clock):
    player = march_of_play
    other = make_player("nosy")
    joined(other, at=datetime(2026, 3, 1, tzinfo=UTC))
    client.post(reverse("logout"))
    for url in (
        reverse("statement"),
        reverse("statement_month", kwargs={"month": "2026-03"}),
        reverse("statement_csv", kwargs={"month": "2026-03"}),
    ):
        anonymous = client.get(url)
        assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    client.force_login(other)
    html = client.get(reverse("statement_month", kwargs={"month": "2026-03"})).content.decode()
    figures = {key: (quantity, chips) for key, quantity, chips in figures_of_page(html)}
    mine = account_statement(user=other, month=MARCH)
    assert figures["hands"] == ("0", "")
    assert figures["closing"][1] == str(mine.ledger.closing) == "10000"
    assert player.username not in html
    download = client.get(reverse("statement_csv", kwargs={"month": "2026-03"})).content.decode()
    assert "Buy-ins,0,0" in download


@pytest.mark.parametrize(
    ("month", "status", "words"),
    [
        ("2026-13", 400, "months run from 01 to 12"),
        ("2026-00", 400, "months run from 01 to 12"),
        ("garbage", 400, "is not a month"),
        ("2026-3", 400, "is not a month"),
        ("2026-04", 404, "April 2026 has not come yet"),
        ("2099-01", 404, "has not come yet"),
        ("2025-12", 404, "account was opened after December 2025"),
    ],
)
def test_a_month_that_is_not_to_be_had_is_refused_clearly_and_changes_nothing(
    client, make_player, clock, month, status, words
):
    clock.now = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    player = make_player()
    joined(player, at=datetime(2026, 1, 5, tzinfo=UTC))
    client.force_login(player)
    before = (LedgerEntry.objects.count(), SignIn.objects.count(), wallet_balance(user=player))
    page = client.get(f"/accounts/statement/{month}/")
    assert page.status_code == status
    assert words in page.content.decode().replace("&#x27;", "'")
    download = client.get(f"/accounts/statement/{month}.csv")
    assert download.status_code == status and words in download.content.decode()
    picked = client.get(reverse("statement"), {"month": month})
    assert picked.status_code == status and words in picked.content.decode()
    after = (LedgerEntry.objects.count(), SignIn.objects.count(), wallet_balance(user=player))
    assert after == before


def test_month_parse_refuses_what_is_no_month():
    assert month_parse("2026-05") == Month(2026, 5)
    for text in ("", "2026-5", "26-05", "2026-13", "2026/05", "0000-01", "2026-05-01"):
        with pytest.raises(DomainError) as refused:
            month_parse(text)
        assert refused.value.code == "bad_month"


def test_months_roll_over_the_year():
    assert Month(2026, 12).following == Month(2027, 1)
    assert Month(2026, 1).preceding == Month(2025, 12)
    assert Month(2026, 12).end == Month(2027, 1).start

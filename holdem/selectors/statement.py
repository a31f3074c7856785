"""A player's monthly statement (RULES.md 10): the chips part from the ledger
(casino/accounts/statement.py) with the hands played and the time spent playing them, and the
same figures as the rows of its page and of its CSV file."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from casino.accounts.models import User
from casino.accounts.statement import LedgerMonth, Month, ledger_month
from holdem.models import HandRecord

# Hands less than this apart are one sitting: the wait between them counts as time played
# (docs/decisions.md, "Your account").
SITTING_GAP = timedelta(minutes=5)


@dataclass(frozen=True)
class PlayMonth:
    hands: int
    seconds: int


def play_month(*, user: User, month: Month) -> PlayMonth:
    """The finished hands the player was dealt into that ended in `month`, and the time played:
    each hand from its start to its end, and the wait before it when the player's previous hand
    (in the same month) ended at most SITTING_GAP earlier."""
    spans = (
        HandRecord.objects.filter(
            participants__user=user,
            ended_at__gte=month.start,
            ended_at__lt=month.end,
        )
        .order_by("started_at", "id")
        .values_list("started_at", "ended_at")
    )
    hands = 0
    played = timedelta()
    previous_end: datetime | None = None
    for started_at, ended_at in spans:
        if ended_at is None:  # not possible: the filter asks for an end in the month
            continue
        hands += 1
        played += max(ended_at - started_at, timedelta())
        if previous_end is not None and timedelta() <= started_at - previous_end <= SITTING_GAP:
            played += started_at - previous_end
        previous_end = ended_at if previous_end is None else max(ended_at, previous_end)
    return PlayMonth(hands=hands, seconds=int(played.total_seconds()))


@dataclass(frozen=True)
class StatementRow:
    """One line of the statement: what, how many (lines, hands, minutes...), and chips."""

    key: str
    item: str
    quantity: int | None
    chips: int | None


@dataclass(frozen=True)
class Statement:
    month: Month
    ledger: LedgerMonth
    play: PlayMonth

    @property
    def time_played(self) -> str:
        """As h:mm."""
        minutes = self.play.seconds // 60
        return f"{minutes // 60}:{minutes % 60:02d}"

    @property
    def rows(self) -> list[StatementRow]:
        """The figures in the order the page and the CSV file show them (one list for both)."""
        ledger = self.ledger
        return [
            StatementRow("hands", "Hands played", self.play.hands, None),
            StatementRow("minutes", "Time played (minutes)", self.play.seconds // 60, None),
            StatementRow("sign_ins", "Sign-ins", ledger.sign_ins, None),
            StatementRow("opening", "Opening balance", None, ledger.opening),
            *(StatementRow(k.kind, k.label, k.lines, k.chips) for k in ledger.kinds),
            StatementRow("net", "Net change", ledger.lines, ledger.net),
            StatementRow("closing", "Closing balance", None, ledger.closing),
        ]


def account_statement(*, user: User, month: Month) -> Statement:
    return Statement(
        month=month,
        ledger=ledger_month(user=user, month=month),
        play=play_month(user=user, month=month),
    )

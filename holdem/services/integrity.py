"""Scoring pairs of players for chip dumping and collusion from the recent cash hands, for the
staff's queue (PairScore). The signals, their weights and what a score means: docs/integrity.md.

`integrity_pairs_score` rewrites the queue from a bounded window (the last 30 days, at most the
newest MAX_HANDS hands); Celery beat runs it every ten minutes, the embedded clock too.
"""

import statistics
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from casino.accounts.models import LedgerEntry, LedgerKind
from casino.accounts.selectors import linked_pairs
from holdem.engine.names import Action
from holdem.models import HandAction, HandRecord, PairScore

WINDOW = timedelta(days=30)
MAX_HANDS = 20_000  # the newest hands of the window: the run stays a few seconds at most
KEEP_PAIRS = 500  # the queue keeps the highest scores
HANDS_KEPT = 100  # hand ids kept per pair, newest first

# Points out of 100 for each signal at its full strength (each signal is 0 to 1).
WEIGHTS = {"flow": 30, "folds": 25, "free_chips": 15, "linked": 20, "timing": 10}
# A signal counts fully once it rests on this many observations, in proportion below.
FLOW_SAMPLE = 20  # hands in which the source lost chips to the target
FOLD_SAMPLE = 10  # bets of the target the source had to answer
TIMING_SAMPLE = 30  # timed actions of one player
# Human answer times vary: a coefficient of variation (deviation / mean) this high or higher
# scores 0; a bot's fixed delay, near 0, scores 1.
TIMING_CV_HUMAN = 0.5
FREE_CHIPS_HORIZON = timedelta(hours=24)  # chips lost this soon after a claim were the claim's
AGGRESSION = frozenset({Action.BET, Action.RAISE, Action.ALL_IN})


@dataclass
class PairTally:
    """What passed from one player (source) to another (target) in the window."""

    together: int = 0  # hands both played
    sent: float = 0.0  # chips the source lost that the target won
    lost_with: float = 0.0  # chips the source lost in hands the target played
    exchanges: int = 0  # hands in which the source lost chips to the target
    # Chips the source lost to the target within FREE_CHIPS_HORIZON of a free-chips claim of the
    # source's, less what the target lost to the source in those hands.
    after_claim: float = 0.0
    faced: int = 0  # the target's bets the source answered
    folded: int = 0  # ... by folding
    hands: set[int] = field(default_factory=set)  # the hands behind the score


@dataclass
class PlayerTally:
    lost: float = 0.0
    faced: int = 0  # anyone's bets answered
    folded: int = 0
    claimed: int = 0  # free chips claimed
    answer_seconds: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Signals:
    flow: float
    folds: float
    free_chips: float
    linked: float
    timing: float

    @property
    def total(self) -> float:
        return float(sum(WEIGHTS[name] * getattr(self, name) for name in WEIGHTS))


def _clamp(value: float) -> float:
    return max(0.0, min(1.0, value))


class Tallies:
    def __init__(self) -> None:
        self.pairs: dict[tuple[int, int], PairTally] = defaultdict(PairTally)
        self.players: dict[int, PlayerTally] = defaultdict(PlayerTally)
        self.fold_rate_all = 0.0
        # By target: chips it won from anyone, and what its opponents lost in its hands.
        self.received: dict[int, float] = defaultdict(float)
        self.exposure: dict[int, float] = defaultdict(float)


def _claims_by_user(since: datetime) -> dict[int, list[tuple[datetime, int]]]:
    claims: dict[int, list[tuple[datetime, int]]] = defaultdict(list)
    rows = (
        LedgerEntry.objects.filter(kind=LedgerKind.REFILL, created_at__gte=since)
        .order_by("created_at")
        .values_list("user_id", "created_at", "amount")
    )
    for user_id, at, amount in rows:
        claims[user_id].append((at, amount))
    return claims


def _after_claim(claims: list[datetime] | None, at: datetime) -> bool:
    """Whether `at` falls within FREE_CHIPS_HORIZON after one of these (sorted) claims."""
    if not claims:
        return False
    last = bisect_right(claims, at) - 1
    return last >= 0 and at - claims[last] <= FREE_CHIPS_HORIZON


def _tally_chips(
    tallies: Tallies,
    hands: list[dict[str, Any]],
    claims: dict[int, list[tuple[datetime, int]]],
    window_start: datetime,
) -> None:
    """Who lost chips to whom, hand by hand: a loser's loss is shared among the winners in
    proportion to what each won (the rake makes the winners' sum a little smaller)."""
    claim_times = {uid: [at for at, _ in rows] for uid, rows in claims.items()}
    for user_id, rows in claims.items():
        tallies.players[user_id].claimed = sum(amount for at, amount in rows if at >= window_start)
    for hand in hands:
        nets = {p["user_id"]: p.get("net") or 0 for p in hand["players"] if p.get("user_id")}
        ids = list(nets)
        for a in ids:
            for b in ids:
                if a != b:
                    tallies.pairs[a, b].together += 1
        won = sum(n for n in nets.values() if n > 0)
        if won <= 0 or len(ids) < 2:
            continue
        claimed = {uid for uid in ids if _after_claim(claim_times.get(uid), hand["ended_at"])}
        for loser, net in nets.items():
            if net >= 0:
                continue
            loss = -net
            tallies.players[loser].lost += loss
            for other in ids:
                if other == loser:
                    continue
                pair = tallies.pairs[loser, other]
                pair.lost_with += loss
                tallies.exposure[other] += loss
                if nets[other] > 0:
                    share = loss * nets[other] / won
                    pair.sent += share
                    pair.exchanges += 1
                    tallies.received[other] += share
                    pair.hands.add(hand["id"])
                    if loser in claimed:
                        pair.after_claim += share
                    if other in claimed:
                        tallies.pairs[other, loser].after_claim -= share


def _tally_actions(tallies: Tallies, hands: list[dict[str, Any]]) -> None:
    """Who folded to whose bets, and how long each player took to answer (player actions only:
    a pre-action, a timeout or a disconnection is not a decision timed by a person)."""
    if not hands:
        return
    started = {hand["id"]: hand["started_at"] for hand in hands}
    actions = (
        HandAction.objects.filter(hand_id__gte=min(started), hand_id__lte=max(started))
        .order_by("hand_id", "index")
        .values_list("hand_id", "user_id", "action", "street", "source", "created_at")
    )
    hand_id = street = aggressor = None
    previous = None
    for row_hand, user_id, action, row_street, source, at in actions.iterator(chunk_size=5000):
        if row_hand not in started:
            continue  # a tournament hand, or one outside the window
        if row_hand != hand_id:
            hand_id, street, aggressor, previous = row_hand, None, None, started[row_hand]
        if row_street != street:
            street, aggressor = row_street, None  # RULES.md 3: each round opens unbet
        if user_id is not None:
            if aggressor is not None and aggressor != user_id:
                player = tallies.players[user_id]
                pair = tallies.pairs[user_id, aggressor]
                player.faced += 1
                pair.faced += 1
                if action == Action.FOLD:
                    player.folded += 1
                    pair.folded += 1
                    pair.hands.add(row_hand)
            if action in AGGRESSION:
                aggressor = user_id
            if source == "player" and previous is not None:
                tallies.players[user_id].answer_seconds.append((at - previous).total_seconds())
        previous = at
    faced = sum(p.faced for p in tallies.players.values())
    folded = sum(p.folded for p in tallies.players.values())
    tallies.fold_rate_all = folded / faced if faced else 0.0


def timing_regularity(seconds: list[float]) -> float:
    """1 for answers timed like a machine's (always the same delay), 0 for a human's spread.
    Too few answers, or none measurable (all at one instant), say nothing: 0."""
    if len(seconds) < TIMING_SAMPLE:
        return 0.0
    mean = statistics.fmean(seconds)
    if mean <= 0:
        return 0.0
    return _clamp(1 - statistics.pstdev(seconds) / mean / TIMING_CV_HUMAN)


def pair_signals(
    tallies: Tallies, source: int, target: int, *, linked: bool, regularity: dict[int, float]
) -> Signals:
    pair = tallies.pairs.get((source, target)) or PairTally()
    back = tallies.pairs.get((target, source)) or PairTally()
    me = tallies.players.get(source) or PlayerTally()
    flow = 0.0
    if pair.lost_with > 0 and pair.sent > back.sent:
        # The share of the source's losses (in hands the target played) that the target won,
        # against the share the target won of everyone else's losses: a strong player takes a
        # big share from all, a partner takes far more from the one who dumps.
        others_lost = tallies.exposure[target] - pair.lost_with
        if others_lost > 0:
            share = pair.sent / pair.lost_with
            usual = (tallies.received[target] - pair.sent) / others_lost
            excess = (share - usual) / (1 - usual) if usual < 1 else 0.0
        else:  # the target played nobody else: how one-sided the chips went
            excess = (pair.sent - back.sent) / (pair.sent + back.sent)
        flow = _clamp(excess) * min(1.0, pair.exchanges / FLOW_SAMPLE)
    folds = 0.0
    if pair.faced:
        others_faced = me.faced - pair.faced
        usual = (
            (me.folded - pair.folded) / others_faced
            if others_faced >= FOLD_SAMPLE
            else tallies.fold_rate_all
        )
        # Of the folds the source's usual rate leaves room for, the share it made to the target.
        excess = (pair.folded / pair.faced - usual) / (1 - usual) if usual < 1 else 0.0
        folds = _clamp(excess) * min(1.0, pair.faced / FOLD_SAMPLE)
    free_chips = _clamp(pair.after_claim / me.claimed) if me.claimed else 0.0
    timing = max(regularity.get(source, 0.0), regularity.get(target, 0.0))
    return Signals(
        flow=_clamp(flow),
        folds=folds,
        free_chips=free_chips,
        linked=1.0 if linked else 0.0,
        timing=timing,
    )


def integrity_pairs_score(*, now: datetime | None = None) -> int:
    """Score every pair of players who played together in the window (or are linked by a
    sign-up address or a browser) and replace the staff's queue with the highest scores.
    Returns the number of pairs kept."""
    now = now or timezone.now()
    since = now - WINDOW
    newest = (
        HandRecord.objects.filter(ended_at__gte=since, ended_at__lte=now, tournament__isnull=True)
        .order_by("-id")
        .values("id", "players", "started_at", "ended_at")[:MAX_HANDS]
    )
    hands = cast(list[dict[str, Any]], sorted(newest, key=lambda hand: hand["id"]))
    tallies = Tallies()
    _tally_chips(tallies, hands, _claims_by_user(since - FREE_CHIPS_HORIZON), since)
    _tally_actions(tallies, hands)
    players = {p["user_id"] for hand in hands for p in hand["players"] if p.get("user_id")}
    links = linked_pairs(user_ids=players)
    regularity = {
        uid: timing_regularity(player.answer_seconds) for uid, player in tallies.players.items()
    }
    candidates = set(tallies.pairs) | set(links) | {(b, a) for a, b in links}
    scores = []
    for source, target in candidates:
        signals = pair_signals(
            tallies,
            source,
            target,
            linked=(min(source, target), max(source, target)) in links,
            regularity=regularity,
        )
        total = signals.total
        if total <= 0:
            continue
        pair = tallies.pairs.get((source, target)) or PairTally()
        back = tallies.pairs.get((target, source)) or PairTally()
        scores.append(
            PairScore(
                source_id=source,
                target_id=target,
                total=round(total, 2),
                flow=round(signals.flow, 3),
                folds=round(signals.folds, 3),
                free_chips=round(signals.free_chips, 3),
                linked=signals.linked,
                timing=round(signals.timing, 3),
                net_chips=round(pair.sent - back.sent),
                hands_together=pair.together,
                hand_ids=sorted(pair.hands, reverse=True)[:HANDS_KEPT],
                computed_at=now,
            )
        )
    scores.sort(key=lambda score: (-score.total, score.source_id, score.target_id))
    with transaction.atomic():
        PairScore.objects.all().delete()
        PairScore.objects.bulk_create(scores[:KEEP_PAIRS])
    return min(len(scores), KEEP_PAIRS)

"""The services ask the table's kind of game (holdem/services/game_kinds.py) how a player enters,
tops up and leaves, what a bust does and what the blinds are: a stand-in kind that answers
otherwise changes what they do, and every table is a cash game today."""

import dataclasses
import random
from datetime import datetime

import pytest

from casino.accounts.models import User
from casino.errors import DomainError
from holdem import engine
from holdem.engine.cards import new_deck
from holdem.models import HandRecord, Seat, Table
from holdem.services import (
    countdown,
    game_kinds,
    hand_end,
    hand_start,
    seats,
    table_leave,
    table_sit,
    table_switch,
    table_top_up,
)
from holdem.services.game_kinds import (
    CASH_GAME,
    SIT_AND_GO,
    CashGame,
    GameKind,
    HandPlan,
    game_kind_of,
)
from tests.holdem.conftest import chips_everywhere, current, play_out

pytestmark = pytest.mark.django_db


class StandInTournament:
    """A kind of game unlike the cash game: no sitting down by hand once `entry_closed`, no
    top-ups, no leaving with chips, a busted seat kept (as in a rebuy period), double blinds.
    Chips still come from the wallet, as the cash game's do, so the tests can seat players."""

    name = "stand-in"

    def __init__(self) -> None:
        self.entry_closed = False
        self.busts: list[tuple[int, datetime]] = []
        self.options_asked_at: list[datetime] = []

    def entry_refusal(self, *, table: Table, user: User) -> DomainError | None:
        if self.entry_closed:
            return DomainError("registration_closed", "the tournament has started")
        return None

    def chips_in(self, *, table: Table, user: User, amount: int, reason: str) -> None:
        CASH_GAME.chips_in(table=table, user=user, amount=amount, reason=reason)

    def chips_out(self, *, table: Table, seat: Seat, reason: str) -> None:
        CASH_GAME.chips_out(table=table, seat=seat, reason=reason)

    def top_up_refusal(self, *, table: Table, seat: Seat) -> DomainError | None:
        return DomainError("no_top_up", "a tournament stack is not topped up")

    def leave_refusal(self, *, table: Table, seat: Seat) -> DomainError | None:
        if seat.stack > 0:
            return DomainError("play_it_out", "a tournament is played until you bust")
        return None

    def bust(self, *, table: Table, seat: Seat, now: datetime) -> bool:
        self.busts.append((seat.number, now))
        return False

    def hand_options(self, *, table: Table, stacks: list[int], now: datetime) -> engine.HandOptions:
        self.options_asked_at.append(now)
        options = CASH_GAME.hand_options(table=table, stacks=stacks, now=now)
        return dataclasses.replace(
            options, small_blind=2 * options.small_blind, big_blind=2 * options.big_blind
        )

    # Who plays, where the blinds fall, disconnections and the record: as in a cash game.
    def can_play(self, seat: Seat) -> bool:
        return CASH_GAME.can_play(seat)

    def hand_plan(self, *, table, seats, rng) -> HandPlan | None:
        return CASH_GAME.hand_plan(table=table, seats=seats, rng=rng)

    def keeps_disconnected(self, table: Table) -> bool:
        return CASH_GAME.keeps_disconnected(table)

    def hand_header(self, table: Table) -> dict | None:
        return None

    def hand_ended(self, table, *, record, seats, now) -> None:
        return None

    def hold(self, table) -> str | None:
        return None


@pytest.fixture
def stand_in(monkeypatch) -> StandInTournament:
    """Every table plays the stand-in kind, wherever the services ask."""
    kind = StandInTournament()
    for module in (seats, hand_start, hand_end, countdown):
        monkeypatch.setattr(module, "game_kind_of", lambda table: kind)
    return kind


def test_a_room_is_a_cash_game_and_a_sit_and_go_table_a_sit_and_go(room):
    table = room("nl50")
    kind: GameKind = game_kind_of(table)
    assert isinstance(kind, CashGame) and kind.name == "cash"
    table.kind = "sit_and_go"
    assert game_kind_of(table) is SIT_AND_GO and SIT_AND_GO.name == "sit_and_go"


def test_the_kind_can_refuse_leaving_with_chips_and_switching_rooms(seated, stand_in, room):
    table, users = seated("nl50", seats=(0, 1))
    users[0].wallet.refresh_from_db()
    balance = users[0].wallet.balance
    with pytest.raises(DomainError) as refused:
        table_leave(table_id=table.pk, user=users[0])
    assert refused.value.code == "play_it_out"
    other = room("nl50")
    with pytest.raises(DomainError) as refused:
        table_switch(user=users[0], to_table_id=other.pk)
    assert refused.value.code == "play_it_out"
    users[0].wallet.refresh_from_db()
    assert users[0].wallet.balance == balance
    assert Seat.objects.get(user=users[0]).stack == 5_000


def test_the_kind_can_refuse_a_top_up_and_a_seat(seated, stand_in, make_player):
    table, users = seated("nl50", seats=(0, 1), buy_in=3_000)
    with pytest.raises(DomainError) as refused:
        table_top_up(table_id=table.pk, user=users[0], amount=100)
    assert refused.value.code == "no_top_up"
    stand_in.entry_closed = True
    with pytest.raises(DomainError) as refused:
        table_sit(table_id=table.pk, user=make_player(), seat=5, buy_in=3_000)
    assert refused.value.code == "registration_closed"
    assert Seat.objects.filter(table=table).count() == 2
    assert Seat.objects.get(user=users[0]).stack == 3_000


def test_the_blinds_of_a_hand_are_the_kinds(seated, stand_in, clock):
    table, _ = seated("nl50", seats=(0, 1))
    clock.advance(31)
    record = HandRecord.objects.get(table=table)
    assert (record.options["small_blind"], record.options["big_blind"]) == (
        2 * table.small_blind,
        2 * table.big_blind,
    )
    assert stand_in.options_asked_at == [clock.now]
    assert current(table).options.big_blind == 2 * table.big_blind


def test_a_bust_does_what_the_kind_says(seated, stand_in, clock, monkeypatch):
    # The deal of tests/holdem/test_hand_end_events.py, which busts a player in a cash game.
    table, users = seated("nl50", seats=(0, 1, 2), stacks=(2_000, 4_000, 6_000))
    monkeypatch.setattr(hand_start, "hand_deck", lambda: random.Random(1).sample(new_deck(), k=52))
    monkeypatch.setattr(game_kinds, "next_button", lambda current, dealt, rng: dealt[0])
    clock.advance(31)
    play_out(table, users, choose=lambda legal: "all_in" if "all_in" in legal.actions else "call")
    assert stand_in.busts, "nobody busted: the deal no longer does what this test needs"
    busted = {number for number, _ in stand_in.busts}
    assert {at for _, at in stand_in.busts} == {clock.now}
    # The stand-in keeps the busted seats: nobody left.
    kept = {s.number: s.stack for s in Seat.objects.filter(table=table)}
    assert set(kept) == {0, 1, 2}
    assert all(kept[number] == 0 for number in busted)
    # A busted player with no chips may leave; nothing to return.
    loser = users[min(busted)]
    assert table_leave(table_id=table.pk, user=loser) == 0
    chips_everywhere()


def test_a_cash_game_bust_frees_the_seat(seated, clock, monkeypatch):
    table, users = seated("nl50", seats=(0, 1, 2), stacks=(2_000, 4_000, 6_000))
    monkeypatch.setattr(hand_start, "hand_deck", lambda: random.Random(1).sample(new_deck(), k=52))
    monkeypatch.setattr(game_kinds, "next_button", lambda current, dealt, rng: dealt[0])
    clock.advance(31)
    play_out(table, users, choose=lambda legal: "all_in" if "all_in" in legal.actions else "call")
    assert Seat.objects.filter(table=table).count() < 3
    assert not Seat.objects.filter(table=table, stack=0).exists()
    chips_everywhere()

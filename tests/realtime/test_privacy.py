"""Private means private: every frame to every socket over many random hands is checked for a
card its receiver should not see (others' hole cards, burn and undealt cards). style.md 5."""

import asyncio
import json
import random
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from casino.accounts.models import LedgerKind
from casino.accounts.services import wallet_adjust
from holdem import engine
from holdem.engine.cards import new_deck
from holdem.models import HandRecord, Seat
from tests.realtime.conftest import countdown_left, fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
HANDS = 14


def royal_board_deck(rng, players):
    """A deck whose board is a royal flush: everybody still in splits every pot."""
    board = ["As", "Ks", "Qs", "Js", "Ts"]
    rest = [c for c in new_deck() if c not in board]
    rng.shuffle(rest)
    holes = rest[: 2 * players]
    burns = rest[2 * players : 2 * players + 3]
    tail = rest[2 * players + 3 :]
    return [*holes, burns[0], *board[:3], burns[1], board[3], burns[2], board[4], *tail]


def hand_facts(hand_id):
    record = HandRecord.objects.get(pk=hand_id)
    final = engine.state_from_json(record.final_state)
    holes = {p.seat: set(p.hole) for p in final.players}
    return (
        set(record.deck),
        holes,
        set(record.board),
        {int(s): set(c) for s, c in record.shown.items()},
    )


def test_no_socket_ever_receives_a_card_it_should_not_see(table_room, make_player, monkeypatch):
    from holdem.services import hand_start as hand_service

    rng = random.Random(2024)
    table = table_room("nl50")
    users = {seat: make_player(f"p{seat}") for seat in (0, 2, 5)}
    watcher = make_player("watcher")
    stacks = {0: 2000, 2: 5500, 5: 9000}  # short stacks make side pots
    deals = {"n": 0}

    def deck():
        deals["n"] += 1
        if deals["n"] % 4 == 0:
            return royal_board_deck(rng, 3)
        cards = new_deck()
        rng.shuffle(cards)
        return cards

    monkeypatch.setattr(hand_service, "hand_deck", deck)

    async def scenario():
        sockets = {
            seat: await open_socket(f"/ws/table/{table.pk}/", user=u, name=f"p{seat}")
            for seat, u in users.items()
        }
        spectator = await open_socket(f"/ws/table/{table.pk}/", user=watcher, name="watcher")
        received = {seat: [] for seat in users} | {"watcher": []}

        async def collect():
            """Every frame each socket received (also those read while waiting for answers)."""
            for receiver, sock in [*sockets.items(), ("watcher", spectator)]:
                await sock.drain(0.05)
                received[receiver].extend(sock.frames)
                sock.frames.clear()

        for seat, sock in sockets.items():
            await sock.receive()
            await sock.request({"type": "sit", "seat": seat, "buy_in": stacks[seat]})
        await spectator.receive()
        checked_hands = 0
        for hand_number in range(HANDS):
            seated = await database_sync_to_async(
                lambda: set(Seat.objects.filter(table=table).values_list("number", flat=True))
            )()
            for seat in set(users) - seated:  # busted: top the wallet up and buy in again
                await database_sync_to_async(wallet_adjust)(
                    user=users[seat],
                    amount=stacks[seat],
                    kind=LedgerKind.ADMIN_ADJUSTMENT,
                    reason="rebuy for the test",
                )
                await sockets[seat].send({"type": "sit", "seat": seat, "buy_in": stacks[seat]})
                answer = await sockets[seat].until(lambda f: f["type"] in ("ok", "error"))
                assert answer["type"] == "ok", answer
            await collect()
            for frames in received.values():
                frames.clear()
            await fire_clock(await countdown_left(table.pk))
            snapshot = await spectator.request({"type": "snapshot"})
            if snapshot["table"]["hand"] is None:
                break  # fewer than two players left
            for step in range(60):
                snap = await spectator.request({"type": "snapshot"})
                hand = snap["table"]["hand"]
                if hand is None:
                    break
                actor = hand["to_act"]
                if rng.random() < 0.1:  # a reconnect mid-hand
                    received[actor].extend(sockets[actor].frames)
                    await sockets[actor].close()
                    sockets[actor] = await open_socket(f"/ws/table/{table.pk}/", user=users[actor])
                    await sockets[actor].until(lambda f: f["type"] == "snapshot")
                mine = await sockets[actor].request({"type": "snapshot"})
                legal = mine["you"]["legal"]
                move = rng.choice(legal["actions"])
                frame = {"type": "act", "action": move, "action_id": f"{hand_number}-{step}"}
                if move in ("bet", "raise"):
                    frame["amount"] = rng.randint(legal["min_to"], legal["max_to"])
                await sockets[actor].send(frame)
                answer = await sockets[actor].until(lambda f: f["type"] in ("ok", "error"))
                assert answer["type"] == "ok", answer
            await asyncio.sleep(0.05)
            await collect()
            hand_id = snap["table"]["last_hand"]["hand_id"]
            deck, holes, board, shown = await database_sync_to_async(hand_facts)(hand_id)
            for receiver, frames in received.items():
                own = holes.get(receiver, set()) if receiver != "watcher" else set()
                shown_cards = set().union(*shown.values()) if shown else set()
                forbidden = deck - own - board - shown_cards
                seen = set()
                for frame in frames:
                    cards = set(CARD.findall(json.dumps(frame)))
                    leaked = cards & forbidden
                    assert not leaked, (
                        f"{receiver} saw {leaked} in {frame['type']} of hand {hand_id}"
                    )
                    seen |= cards
                assert own <= seen, (
                    f"{receiver} never got their own cards"
                )  # the check can see cards
            checked_hands += 1
        for sock in [*sockets.values(), spectator]:
            await sock.close()
        return checked_hands

    assert async_to_sync(scenario)() == HANDS
    from holdem.selectors.audit import audit_chips

    assert audit_chips().ok

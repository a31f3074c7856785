"""Events carry only what changed (docs/protocol.md, "event"): a client that starts from one
snapshot and then applies nothing but the events holds, at the end of every hand, exactly what a
fresh snapshot would give it: players, a spectator and a player who reconnected mid-hand, through
sit-outs, leaving and coming back, side pots and busts. The browser's own module
(static/js/table-delta.js) rebuilds the same tables from the same frames."""

import asyncio
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from casino.accounts.models import LedgerKind
from casino.accounts.services import wallet_adjust
from holdem.engine.cards import new_deck
from holdem.models import Seat
from holdem.realtime.delta import plain
from holdem.selectors.snapshot import table_snapshot
from holdem.services import hand_start as hand_service
from tests.conftest import service_missing
from tests.realtime.conftest import countdown_left, fire_clock, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
HANDS = 6  # hands played to the end, at most ROUNDS rounds between hands
ROUNDS = 16
NODE_REPLAY = Path(__file__).with_name("replay_frames.mjs")


def without_clock(table):
    return {key: value for key, value in table.items() if key != "now"}


async def held_equals_fresh(sock, user, table_id):
    """The socket's table and private part equal a fresh snapshot's (the clock aside)."""
    fresh = plain(await database_sync_to_async(table_snapshot)(table_id, user))
    assert sock.seq == fresh["seq"], sock.name
    assert without_clock(sock.table) == without_clock(fresh["table"]), sock.name
    assert sock.you == fresh["you"], sock.name


def test_a_client_applying_only_events_ends_every_hand_with_the_snapshot(
    table_room, make_player, monkeypatch
):
    rng = random.Random(4242)
    dealer = random.Random(4243)  # the same hands every run: busts and rebuys come alike

    def deck():
        cards = new_deck()
        dealer.shuffle(cards)
        return cards

    monkeypatch.setattr(hand_service, "hand_deck", deck)
    table = table_room("nl50")
    users = {seat: make_player(f"d{seat}") for seat in (0, 2, 5)}
    watcher = make_player("dwatch")
    stacks = {0: 2000, 2: 5000, 5: 8000}
    frames_seen = {}

    async def scenario():
        sockets = {
            seat: await open_socket(f"/ws/table/{table.pk}/", user=u, name=f"d{seat}")
            for seat, u in users.items()
        }
        spectator = await open_socket(f"/ws/table/{table.pk}/", user=watcher, name="dwatch")
        everyone = lambda: [*sockets.values(), spectator]  # noqa: E731
        for sock in everyone():
            await sock.receive()
        for seat, sock in sockets.items():
            assert (await sock.request({"type": "sit", "seat": seat, "buy_in": stacks[seat]}))[
                "type"
            ] == "ok"

        async def settle():
            await asyncio.sleep(0.05)
            for sock in everyone():
                await sock.drain(0.05)

        async def check_all():
            await settle()
            for seat, sock in sockets.items():
                await held_equals_fresh(sock, users[seat], table.pk)
            await held_equals_fresh(spectator, watcher, table.pk)

        hands_played = 0
        for hand_number in range(ROUNDS):
            if hands_played == HANDS:
                break
            # Between hands: a bust buys in again, and now and then someone sits out, comes
            # back, or leaves and sits down again.
            seated = await database_sync_to_async(
                lambda: dict(Seat.objects.filter(table=table).values_list("number", "sitting_out"))
            )()
            for seat, sock in sockets.items():
                if seat not in seated:
                    await database_sync_to_async(wallet_adjust)(
                        user=users[seat],
                        amount=stacks[seat],
                        kind=LedgerKind.ADMIN_ADJUSTMENT,
                        reason="rebuy for the test",
                    )
                    answer = await sock.request(
                        {"type": "sit", "seat": seat, "buy_in": stacks[seat]}
                    )
                    assert answer["type"] == "ok", answer
                elif seated[seat]:
                    assert (await sock.request({"type": "sit_in"}))["type"] == "ok"
                elif rng.random() < 0.15:
                    assert (await sock.request({"type": "sit_out"}))["type"] == "ok"
                elif rng.random() < 0.1:
                    held = sock.table["seats"][seat]["stack"]
                    assert (await sock.request({"type": "leave"}))["type"] == "ok"
                    # RULES.md 2: back within 30 minutes, with at least what they left with.
                    answer = await sock.request(
                        {"type": "sit", "seat": seat, "buy_in": max(held, stacks[seat])}
                    )
                    assert answer["type"] == "ok", answer
            await check_all()
            await fire_clock(await countdown_left(table.pk))
            await settle()
            if spectator.table["hand"] is None:
                continue  # fewer than two players dealt in: the next round seats them again
            hands_played += 1
            reconnected = False
            for step in range(80):
                await settle()
                hand = spectator.table["hand"]
                if hand is None:
                    break
                actor = hand["to_act"]
                sock = sockets[actor]
                if not reconnected and rng.random() < 0.08:  # a reload mid-hand
                    reconnected = True
                    frames_seen.setdefault(actor, []).extend(sock.frames)
                    await sock.close()
                    sock = sockets[actor] = await open_socket(
                        f"/ws/table/{table.pk}/", user=users[actor], name=f"d{actor}"
                    )
                    await sock.receive()
                legal = sock.you["legal"]  # what this client holds: no snapshot asked for
                assert legal is not None and legal["seat"] == actor, (sock.name, sock.you)
                move = rng.choice(legal["actions"])
                frame = {"type": "act", "action": move, "action_id": f"{hand_number}-{step}"}
                if move in ("bet", "raise"):
                    frame["amount"] = rng.randint(legal["min_to"], legal["max_to"])
                answer = await sock.request(frame)
                assert answer["type"] == "ok", answer
            else:
                pytest.fail("the hand did not end in 80 actions")
            await check_all()
        for seat, sock in sockets.items():
            frames_seen.setdefault(seat, []).extend(sock.frames)
        frames_seen["watcher"] = spectator.frames
        finals = {seat: (s.table, s.you) for seat, s in sockets.items()}
        finals["watcher"] = (spectator.table, spectator.you)
        for sock in everyone():
            await sock.close()
        return hands_played, finals

    hands_played, finals = async_to_sync(scenario)()
    assert hands_played == HANDS
    total = sum(len(frames) for frames in frames_seen.values())
    assert total > 100

    # The browser's module, given each socket's frames since its last snapshot, ends where the
    # test client ended.
    if shutil.which("node") is None:
        service_missing("node is not installed (bin/services installs it)")
    for receiver, frames in frames_seen.items():
        start = max(i for i, f in enumerate(frames) if f["type"] == "snapshot")
        wire = [
            {k: v for k, v in f.items() if not (f["type"] == "event" and k == "table")}
            for f in frames[start:]
        ]
        done = subprocess.run(
            ["node", str(NODE_REPLAY)],
            input=json.dumps(wire),
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        assert json.loads(done.stdout) == list(finals[receiver]), receiver

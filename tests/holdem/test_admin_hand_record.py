"""The hand record in the admin reads like the history page: who sat where with what, every action
with its chips street by street, the board, the pots and who won them, the PokerStars text. No
stored column shows raw, and no card the table did not see: folded and mucked hands, burnt and
undealt cards stay hidden, and a hand still being played shows nothing of itself."""

import html
import json
import random
import re

import pytest
from django.urls import reverse

from holdem import engine
from holdem.engine.cards import new_deck
from holdem.engine.positions import next_button
from holdem.models import HandAction, HandRecord, Seat
from holdem.services import table_act, table_sit
from tests.holdem.conftest import current, play_out
from tests.holdem.test_admin_privacy import cards_in

pytestmark = pytest.mark.django_db

BUTTON, SMALL_BLIND, BIG_BLIND = 0, 1, 2
HOLES = {SMALL_BLIND: ["Ah", "Ad"], BIG_BLIND: ["7c", "2d"], BUTTON: ["Ks", "Qs"]}
BOARD = ["As", "Kd", "9h", "4c", "3s"]


def deck_dealing(holes_in_deal_order: list[list[str]], board: list[str]) -> list[str]:
    """A deck that deals these hole cards (one card each, twice round) and this board; the burnt
    cards and the rest come from the cards left over."""
    used = {card for hole in holes_in_deal_order for card in hole} | set(board)
    spare = [card for card in new_deck() if card not in used]
    deal = [hole[0] for hole in holes_in_deal_order] + [hole[1] for hole in holes_in_deal_order]
    burns = spare[:3]
    stub = [burns[0], *board[:3], burns[1], board[3], burns[2], board[4]]
    return [*deal, *stub, *spare[3:]]


@pytest.fixture
def showdown_hand(seated, clock, monkeypatch):
    """Three players at No-Limit 50/100, the button on seat 0 (shown as seat 1). The button
    raises to 1,200 and both blinds call; on the flop the small blind bets 1,000, the big blind
    calls and the button folds its K♠ Q♠; checked down. The small blind shows three aces first,
    so the big blind's 7♣ 2♦ is mucked (the room mucks losing hands). Returns (record, users)."""
    monkeypatch.setattr(
        "holdem.services.game_kinds.next_button", lambda previous, dealt, rng: BUTTON
    )
    order = [HOLES[SMALL_BLIND], HOLES[BIG_BLIND], HOLES[BUTTON]]  # clockwise from the button
    monkeypatch.setattr("holdem.services.hand_start.hand_deck", lambda: deck_dealing(order, BOARD))
    table, users = seated("nl50", seats=(BUTTON, SMALL_BLIND, BIG_BLIND), buy_in=5_000)
    clock.advance(31)
    plan = [
        (BUTTON, "raise", 1_200),
        (SMALL_BLIND, "call", None),
        (BIG_BLIND, "call", None),
        (SMALL_BLIND, "bet", 1_000),
        (BIG_BLIND, "call", None),
        (BUTTON, "fold", None),
        *[(seat, "check", None) for seat in (SMALL_BLIND, BIG_BLIND) * 2],
    ]
    for seat, action, amount in plan:
        assert engine.legal_actions(current(table)).seat == seat
        table_act(table_id=table.pk, user=users[seat], action=action, amount=amount)
    record = HandRecord.objects.get(table=table)
    assert record.ended_at is not None and record.result["mucked"] == [BIG_BLIND]
    assert set(record.shown) == {str(SMALL_BLIND)}
    return record, users


def hand_page(client, record) -> str:
    response = client.get(reverse("admin:holdem_handrecord_change", args=[record.pk]))
    assert response.status_code == 200
    return response.content.decode()


def text_of(page: str) -> str:
    """The page's words, tags dropped and spaces folded."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_hand_page_reads_like_the_history(admin_client, showdown_hand):
    record, users = showdown_hand
    page = hand_page(admin_client, record)
    words = text_of(page)
    button, small, big = (users[seat].username for seat in (BUTTON, SMALL_BLIND, BIG_BLIND))
    assert f"Hand #{record.pk}" in words and record.table.name in words
    assert "No-Limit Hold'em, blinds 50/100" in words
    assert record.started_at.strftime("%Y-%m-%d %H:%M:%S") in words
    # Every action with its chips, street by street, the board dealt between them.
    story = [
        "Pre-flop",
        f"{small} posts the small blind 50",
        f"{big} posts the big blind 100",
        f"{button} raises to 1,200",
        f"{small} calls 1,150",
        f"{big} calls 1,100",
        "Flop: A\u2660 K\u2666 9\u2665",
        f"{small} bets 1,000",
        f"{big} calls 1,000",
        f"{button} folds",
        "Turn: 4\u2663",
        f"{small} checks",
        "River: 3\u2660",
        "Showdown",
        f"{small} shows A\u2665 A\u2666 (three of a kind)",
        f"{big} mucks",
    ]
    at = [words.find(line) for line in story]
    assert -1 not in at and at == sorted(at), dict(zip(story, at))
    # The board, the pot and who won it.
    assert "Board A\u2660 K\u2666 9\u2665 4\u2663 3\u2660" in words
    assert f"5,600 {small} collects 5,600" in words
    assert "Total 5,600 0" in words


def test_the_players_show_site_seat_numbers_and_their_stacks_before_and_after(
    admin_client, showdown_hand
):
    record, users = showdown_hand
    words = text_of(hand_page(admin_client, record))
    button, small, big = (users[seat].username for seat in (BUTTON, SMALL_BLIND, BIG_BLIND))
    # Seat, player, hand, before, after, net, collected: seats counted from 1 as the site does.
    assert f"1 D {button} folded 5,000 3,800 -1,200" in words
    assert f"2 {small} A\u2665 A\u2666 three of a kind 5,000 8,400 +3,400 5,600" in words
    assert f"3 {big} mucked 5,000 2,800 -2,200" in words
    assert "Button seat 1" in words
    # Its place in the table's hash chain (manage.py verify_chain), to read, not to change.
    assert f"Chain hash {record.chain_hash} (the table's first hand)" in words


def test_the_hand_page_shows_no_stored_column_and_no_card_the_table_did_not_see(
    admin_client, showdown_hand
):
    record, _users = showdown_hand
    page = hand_page(admin_client, record)
    for column in ("options", "players", "board", "pots", "shown", "result", "deck"):
        stored = getattr(record, column)
        assert json.dumps(stored) not in html.unescape(page), column
    for key in ("stack_before", "user_id", "final_stacks", '"seat"', "eligible"):
        assert key not in html.unescape(page), key
    # The table saw the board and the small blind's aces, and nothing else: not the folded
    # K♠ Q♠, not the mucked 7♣ 2♦, not a burnt or undealt card.
    seen = set(BOARD) | set(HOLES[SMALL_BLIND])
    assert cards_in(page) == seen
    assert not cards_in(page) & {*HOLES[BUTTON], *HOLES[BIG_BLIND]}
    # The PokerStars text is there, with the same view of the cards.
    assert f"PokerStars Hand #{record.pk}:" in page
    assert "*** SHOW DOWN ***" in page


def test_a_hand_being_played_shows_nothing_of_itself(admin_client, seated, clock):
    table, _users = seated("nl50", seats=(0, 1))
    clock.advance(31)
    record = HandRecord.objects.get(table=table, ended_at__isnull=True)
    page = hand_page(admin_client, record)
    words = text_of(page)
    assert f"Hand #{record.pk}" in words and "still being played" in words
    assert "Chain hash" not in words  # hashed once it ends
    assert cards_in(page) == set()
    for username in (p["username"] for p in record.players):
        assert username not in words
    assert "PokerStars" not in page


def test_the_hand_list_names_hands_as_the_site_does(admin_client, showdown_hand):
    record, _users = showdown_hand
    page = admin_client.get(reverse("admin:holdem_handrecord_changelist")).content.decode()
    assert f"Hand #{record.pk}" in text_of(page)
    # The action log, row by row, reached from the hand: seats from 1, chips with separators.
    actions = admin_client.get(
        reverse("admin:holdem_handaction_changelist"), {"hand__id__exact": record.pk}
    ).content.decode()
    raise_row = next(row for row in re.findall(r"<tr>.*?</tr>", actions, re.S) if "raise" in row)
    assert '<td class="field-seat">1</td>' in raise_row
    assert '<td class="field-amount">1,200</td>' in raise_row


def table_in_hand(table) -> bool:
    table.refresh_from_db()
    return table.in_hand


def test_every_hand_of_a_random_session_shows_only_what_its_table_saw(
    admin_client, seated, clock, make_player, monkeypatch
):
    # Folds, all-ins with side pots, run-outs, uncontested pots: whatever the hand, its page
    # reads and shows the board and the hands shown, and nothing else. Decks, buttons and actions
    # are seeded; a busted player's seat is taken again, so the session goes on.
    decks, buttons = random.Random(5), random.Random(6)
    monkeypatch.setattr(
        "holdem.services.hand_start.hand_deck", lambda: decks.sample(new_deck(), k=52)
    )
    monkeypatch.setattr(
        "holdem.services.game_kinds.next_button",
        lambda previous, dealt, rng: next_button(previous, dealt, buttons),
    )
    seats = (0, 2, 5, 7)
    table, users = seated("nl50", seats=seats, stacks=[2_000, 2_500, 4_000, 6_000])
    rng = random.Random(11)
    endings = set()
    for _ in range(12):
        taken = set(Seat.objects.filter(table=table).values_list("number", flat=True))
        for number in set(seats) - taken:
            users[number] = make_player()
            table_sit(table_id=table.pk, user=users[number], seat=number, buy_in=2_000)
        clock.advance(31)
        assert table_in_hand(table)
        play_out(table, users, rng=rng)
        record = HandRecord.objects.filter(table=table).order_by("-id").first()
        page = hand_page(admin_client, record)
        shown = {card for hole in record.shown.values() for card in hole}
        assert cards_in(page) == set(record.board) | shown, record.pk
        assert f"PokerStars Hand #{record.pk}:" in page
        endings.add(("showdown" if record.result["shown"] else "uncontested", len(record.pots)))
    assert {"showdown", "uncontested"} <= {ending for ending, _pots in endings}, endings
    assert max(pots for _ending, pots in endings) > 1, endings  # a side pot


def test_the_names_the_admin_gives_rows_use_the_sites_numbers(seated, clock):
    """Object-history pages and breadcrumbs name a hand by its site number and seats from 1."""
    table, users = seated("nl50", seats=(0, 7))
    clock.advance(31)
    record = HandRecord.objects.get(table=table)
    assert str(record) == f"Hand #{record.pk} at {table.name}"
    to_act = engine.legal_actions(current(table)).seat
    table_act(table_id=table.pk, user=users[to_act], action="call")
    first = HandAction.objects.get(hand=record, index=0)
    assert str(first) == f"Hand #{record.pk}, action 1: seat {to_act + 1} call"
    seat = Seat.objects.get(table=table, number=7)
    assert "seat 8:" in str(seat)

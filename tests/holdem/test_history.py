"""Hand history: previous hand for a player, recent hands, PokerStars export (RULES.md 4)."""

import pytest
from django.urls import reverse

from holdem.history.pokerstars import pokerstars_text
from holdem.models import HandRecord
from holdem.selectors.hand_history import hand_summary_for, hands_of
from holdem.selectors.snapshot import previous_hand_for
from tests.holdem.conftest import play_out

pytestmark = pytest.mark.django_db

call_or_check = lambda legal: "check" if "check" in legal.actions else "call"  # noqa: E731


def played_showdown(seated, clock):
    table, users = seated("nl50", seats=(0, 3, 5))
    clock.advance(31)
    play_out(table, users, choose=call_or_check)
    table.refresh_from_db()
    return table, users, HandRecord.objects.get(table=table)


def test_previous_hand_shows_board_actions_shown_hands_and_own_cards(seated, clock):
    table, users, record = played_showdown(seated, clock)
    summary = previous_hand_for(table, users[0])
    assert summary["board"] == record.board and len(summary["board"]) == 5
    assert len(summary["actions"]) >= 3
    assert summary["shown"]  # a showdown happened
    assert summary["your_cards"] and len(summary["your_cards"]) == 2
    # Another player's unshown cards never appear in my summary.
    for seat, cards in summary["shown"].items():
        assert cards == record.shown[seat]


def test_recent_hands_list_only_the_players_own(seated, clock, make_player):
    _table, users, record = played_showdown(seated, clock)
    assert [r.pk for r in hands_of(users[3])] == [record.pk]
    assert list(hands_of(make_player())) == []


def test_pokerstars_export_reads_like_a_pokerstars_hand(seated, clock):
    table, users, record = played_showdown(seated, clock)
    text = pokerstars_text(record, viewer_id=users[0].pk)
    lines = text.splitlines()
    assert lines[0].startswith(f"PokerStars Hand #{record.pk}: Hold'em No Limit (50/100) - ")
    assert lines[1].startswith(
        f"Table '{table.name}' 9-max Seat #{record.button_seat + 1} is the button"
    )
    assert "posts small blind 50" in text and "posts big blind 100" in text
    assert "*** HOLE CARDS ***" in text and "*** FLOP ***" in text and "*** RIVER ***" in text
    assert (
        "*** SUMMARY ***" in text
        and f"Total pot {sum(p['amount'] for p in record.result['pots'])}" in text
    )
    own = hand_summary_for(record, users[0])["your_cards"]
    assert f"Dealt to {users[0].username} [{' '.join(own)}]" in text
    # Hole cards of a player who did not show never appear.
    hidden = [p for p in record.players if str(p["seat"]) not in record.shown and p["seat"] != 0]
    from holdem import engine

    final = engine.state_from_json(record.final_state)
    for player in hidden:
        assert f"[{' '.join(final.player(player['seat']).hole)}]" not in text


def test_history_pages_and_download_are_for_participants_only(client, seated, clock, make_player):
    _table, users, record = played_showdown(seated, clock)
    client.force_login(users[0])
    assert client.get(reverse("hand_list")).status_code == 200
    assert client.get(reverse("hand_detail", args=[record.pk])).status_code == 200
    download = client.get(reverse("hand_download", args=[record.pk]))
    assert download.status_code == 200 and download.content.startswith(b"PokerStars Hand #")
    client.force_login(make_player())
    assert client.get(reverse("hand_download", args=[record.pk])).status_code == 404

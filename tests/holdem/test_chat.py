"""Table chat: plain text up to 200 characters, at most 5 lines in 10 s, refused
with a coded error (and nothing stored) when bad; kept for the admin; muting by players and by
staff."""

import pytest
from django.urls import reverse

from casino.errors import DomainError
from holdem.models import ChatBan, ChatLine
from holdem.selectors.snapshot import table_view_for
from holdem.services.chat import chat_mute, chat_say

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "chat_empty"),
        ("   ", "chat_empty"),
        ("x" * 201, "chat_too_long"),
        ("bell\x07", "chat_bad_text"),
        ("zero\u200bwidth", "chat_bad_text"),
        ("nul\x00", "chat_bad_text"),
    ],
)
def test_a_bad_line_is_refused_and_nothing_is_stored(seated, text, code):
    table, users = seated("nl50", seats=(0, 1))
    with pytest.raises(DomainError) as refused:
        chat_say(table_id=table.pk, user=users[0], text=text)
    assert refused.value.code == code and refused.value.message
    assert not ChatLine.objects.exists()


def test_lines_are_kept_and_the_snapshot_carries_the_last_fifty(seated, make_player):
    table, users = seated("nl50", seats=(0, 1))
    watcher = make_player("chatwatch")
    for n in range(55):
        ChatLine.objects.create(table=table, user=users[n % 2], text=f"line {n}")
    chat_say(table_id=table.pk, user=watcher, text="  <script>alert(1)</script>  ")
    view = table_view_for(table, watcher)
    assert len(view["chat"]) == 50
    assert view["chat"][-1]["text"] == "<script>alert(1)</script>"  # stored as typed, trimmed
    assert view["chat"][-1]["username"] == "chatwatch"
    assert view["chat"][0]["text"] == "line 6"  # oldest first


def test_five_lines_in_ten_seconds_then_a_clear_error(seated, clock):
    table, users = seated("nl50", seats=(0, 1))
    for n in range(5):
        chat_say(table_id=table.pk, user=users[0], text=f"hi {n}")
    with pytest.raises(DomainError) as refused:
        chat_say(table_id=table.pk, user=users[0], text="one more")
    assert refused.value.code == "chat_flood"
    clock.now = clock.now.replace(microsecond=0)
    clock.advance(11)
    chat_say(table_id=table.pk, user=users[0], text="later")
    assert ChatLine.objects.filter(user=users[0]).count() == 6


def test_a_players_only_room_refuses_spectators(seated, make_player):
    table, users = seated("nl50", seats=(0, 1), chat="players")
    with pytest.raises(DomainError) as refused:
        chat_say(table_id=table.pk, user=make_player("lurker"), text="hello")
    assert refused.value.code == "chat_players_only"
    chat_say(table_id=table.pk, user=users[1], text="hello")


def test_a_user_muted_by_staff_is_refused_with_the_reason(seated, admin_sign_in, make_player):
    table, users = seated("nl50", seats=(0, 1))
    root = make_player("chatroot")
    root.is_staff = root.is_superuser = True
    root.save()
    admin_client = admin_sign_in(root)
    answer = admin_client.post(
        reverse("admin:holdem_chatban_add"), {"user": users[0].pk, "reason": "spam"}
    )
    assert answer.status_code == 302
    ban = ChatBan.objects.get(user=users[0])
    assert ban.banned_by.is_superuser and ban.reason == "spam"
    with pytest.raises(DomainError) as refused:
        chat_say(table_id=table.pk, user=users[0], text="buy chips at ...")
    assert refused.value.code == "chat_muted" and "spam" in refused.value.message
    listing = admin_client.get(reverse("admin:holdem_chatline_changelist"))
    assert listing.status_code == 200


def test_a_player_mutes_another_and_it_is_remembered(seated):
    table, users = seated("nl50", seats=(0, 1))
    chat_mute(user=users[0], muted_id=users[1].pk, mute=True)
    chat_mute(user=users[0], muted_id=users[1].pk, mute=True)  # twice: once
    assert table_view_for(table, users[0])["chat_muted"] == [users[1].pk]
    assert table_view_for(table, users[1])["chat_muted"] == []
    with pytest.raises(DomainError):
        chat_mute(user=users[0], muted_id=users[0].pk, mute=True)
    chat_mute(user=users[0], muted_id=users[1].pk, mute=False)
    assert table_view_for(table, users[0])["chat_muted"] == []

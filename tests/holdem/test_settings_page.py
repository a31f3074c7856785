"""The settings page (/accounts/settings/, holdem/settings_page.py): it shows the player's table
settings, saves them through the one service, shows every refusal next to its field and changes
nothing then, and lists whom the player muted in the chat, to unmute."""

import pytest
from django.urls import reverse

from casino.accounts.table_settings import table_settings_for
from holdem.models import ChatMute
from holdem.selectors.chat import chat_muted_players
from holdem.services.chat import chat_mute

pytestmark = pytest.mark.django_db

GOOD = {
    "bet_sizes_postflop": "25, 60 ,150",
    "bet_sizes_preflop": "2.2; 4x",
    "deck": "two_colour",
}


def test_the_page_is_for_signed_in_players_and_linked_from_the_menu_and_the_profile(
    client, make_player
):
    url = reverse("settings")
    assert client.get(url).status_code == 302  # to sign in
    client.force_login(make_player("ann"))
    page = client.get(url).content.decode()
    assert 'value="33, 50, 67, 75, 100"' in page and 'value="2, 2.5, 3"' in page
    assert 'name="fold_confirm" id="id_fold_confirm" aria-describedby="fold-help" checked' in page
    assert 'value="four_colour" checked' in page
    assert "You have muted nobody." in page
    assert f'href="{url}"' in client.get(reverse("profile")).content.decode()
    assert f'href="{url}"' in client.get(reverse("lobby")).content.decode()  # the site's menu


def test_saving_stores_every_setting_and_shows_them_back(client, make_player):
    ann = make_player("ann")
    client.force_login(ann)
    answer = client.post(reverse("settings"), GOOD)  # the fold box left unticked: off
    assert answer.status_code == 302
    view = table_settings_for(ann)
    assert view["bet_sizes_postflop"] == [25, 60, 150]
    assert view["bet_sizes_preflop"] == [2.2, 4]
    assert view["fold_confirm"] is False and view["deck"] == "two_colour"
    page = client.get(reverse("settings")).content.decode()
    assert "Your table settings are saved." in page
    assert 'value="25, 60, 150"' in page and 'value="2.2, 4"' in page
    assert 'value="two_colour" checked' in page
    # Emptied boxes are the defaults again.
    client.post(reverse("settings"), {**GOOD, "bet_sizes_postflop": "", "fold_confirm": "on"})
    view = table_settings_for(ann)
    assert view["bet_sizes_postflop"] == [33, 50, 67, 75, 100] and view["fold_confirm"] is True


@pytest.mark.parametrize(
    ("field", "typed", "words"),
    [
        ("bet_sizes_postflop", "33, half", "&#x27;half&#x27; is not a number."),
        ("bet_sizes_postflop", "10, 20, 30, 40, 50, 60, 70", "at most 6 sizes"),
        ("bet_sizes_postflop", "0", "from 10% to 500%"),
        ("bet_sizes_preflop", "1", "from 1.5x to 20x"),
        ("bet_sizes_preflop", "2.25", "at most 1 decimal"),
        ("bet_sizes_preflop", "3, 3", "each size once"),
        ("deck", "rainbow", "Select a valid choice"),
    ],
)
def test_a_bad_value_is_shown_by_its_field_and_nothing_changes(
    client, make_player, field, typed, words
):
    ann = make_player("ann")
    client.force_login(ann)
    before = table_settings_for(ann)
    answer = client.post(reverse("settings"), {**GOOD, field: typed})
    assert answer.status_code == 200
    page = answer.content.decode()
    assert words in page
    assert 'role="alert"' in page
    assert table_settings_for(ann) == before


def test_unmuting_from_the_list(client, make_player):
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    chat_mute(user=ann, muted_id=bob.pk, mute=True)
    chat_mute(user=ann, muted_id=cat.pk, mute=True)
    chat_mute(user=cat, muted_id=bob.pk, mute=True)
    client.force_login(ann)
    page = client.get(reverse("settings")).content.decode()
    assert 'aria-label="Unmute bob"' in page and 'aria-label="Unmute cat"' in page
    answer = client.post(reverse("settings_unmute"), {"user_id": bob.pk})
    assert answer.status_code == 302 and answer["Location"].endswith("#muted")
    assert chat_muted_players(ann) == [{"user_id": cat.pk, "username": "cat"}]
    assert "You read bob&#x27;s lines again." in client.get(reverse("settings")).content.decode()
    # Only the player's own mutes: cat still mutes bob.
    assert ChatMute.objects.filter(user=cat, muted=bob).exists()
    # A bad or missing player changes nothing; a GET is refused.
    assert client.post(reverse("settings_unmute"), {"user_id": "x"}).status_code == 302
    assert client.post(reverse("settings_unmute"), {"user_id": ann.pk}).status_code == 302
    assert client.get(reverse("settings_unmute")).status_code == 405
    assert chat_muted_players(ann) == [{"user_id": cat.pk, "username": "cat"}]

"""The table settings a player keeps on the server (casino/accounts/table_settings.py): the
defaults, each setting written and read back, and every bad value refused with a clear error
and nothing stored."""

import pytest

from casino.accounts.models import Deck, Preferences
from casino.accounts.table_settings import (
    DEFAULT_POSTFLOP,
    DEFAULT_PREFLOP,
    preferences_changed,
    preferences_set,
    table_settings_for,
)
from casino.errors import DomainError

pytestmark = pytest.mark.django_db


def test_a_player_who_never_chose_gets_the_defaults(make_player):
    view = table_settings_for(make_player("ann"))
    assert view["bet_sizes_postflop"] == [33, 50, 67, 75, 100] == DEFAULT_POSTFLOP
    assert view["bet_sizes_preflop"] == [2, 2.5, 3] == DEFAULT_PREFLOP
    assert view["fold_confirm"] is True
    assert view["deck"] == Deck.FOUR_COLOUR
    assert view["defaults"] == {
        "bet_sizes_postflop": DEFAULT_POSTFLOP,
        "bet_sizes_preflop": DEFAULT_PREFLOP,
    }
    assert not Preferences.objects.exists()  # reading makes no row


def test_each_setting_is_stored_and_read_back(make_player):
    ann = make_player("ann")
    preferences_set(user=ann, bet_sizes_postflop=[150, 25, 60])
    preferences_set(user=ann, bet_sizes_preflop=[4, 2.2])
    preferences_set(user=ann, fold_confirm=False)
    preferences_set(user=ann, deck="two_colour")
    view = table_settings_for(ann)
    # Sorted, and each change kept the others'.
    assert view["bet_sizes_postflop"] == [25, 60, 150]
    assert view["bet_sizes_preflop"] == [2.2, 4]
    assert view["fold_confirm"] is False
    assert view["deck"] == "two_colour"
    # Another player's settings are their own.
    assert table_settings_for(make_player("bob"))["deck"] == "four_colour"


def test_whole_floats_are_stored_as_integers_and_the_defaults_again_as_the_defaults(make_player):
    ann = make_player("ann")
    preferences_set(user=ann, bet_sizes_preflop=[3.0, 5])
    assert Preferences.objects.get(user=ann).bet_sizes_preflop == [3, 5]
    preferences_set(user=ann, bet_sizes_postflop=[100, 75, 67, 50, 33], bet_sizes_preflop=[])
    row = Preferences.objects.get(user=ann)
    assert row.bet_sizes_postflop == [] and row.bet_sizes_preflop == []  # follow the site's
    assert table_settings_for(ann)["bet_sizes_preflop"] == DEFAULT_PREFLOP


def test_a_change_tells_the_players_pages_with_the_settings_in_force(make_player):
    ann = make_player("ann")
    heard = []

    def listen(sender, **kwargs):
        heard.append(kwargs)

    preferences_changed.connect(listen)
    try:
        preferences_set(user=ann, fold_confirm=False)
    finally:
        preferences_changed.disconnect(listen)
    assert heard[0]["user_id"] == ann.pk
    assert heard[0]["preferences"]["fold_confirm"] is False
    assert heard[0]["preferences"]["bet_sizes_postflop"] == DEFAULT_POSTFLOP


BAD = [
    ("bet_sizes_postflop", [10, 20, 30, 40, 50, 60, 70], "at most 6 sizes"),
    ("bet_sizes_postflop", [0], "from 10% to 500%"),
    ("bet_sizes_postflop", [-50], "from 10% to 500%"),
    ("bet_sizes_postflop", [501], "from 10% to 500%"),
    ("bet_sizes_postflop", [33.5], "whole numbers"),
    ("bet_sizes_postflop", [50, 50], "each size once"),
    ("bet_sizes_postflop", ["50"], "not a number"),
    ("bet_sizes_postflop", [True], "not a number"),
    ("bet_sizes_postflop", [float("nan")], "not a number"),
    ("bet_sizes_postflop", [float("inf")], "not a number"),
    ("bet_sizes_postflop", "33,50", "a list of numbers"),
    ("bet_sizes_postflop", None, "a list of numbers"),
    ("bet_sizes_preflop", [1], "from 1.5x to 20x"),
    ("bet_sizes_preflop", [0.5], "from 1.5x to 20x"),
    ("bet_sizes_preflop", [25], "from 1.5x to 20x"),
    ("bet_sizes_preflop", [2.25], "at most 1 decimal"),
    ("bet_sizes_preflop", [2, 2.5, 3, 4, 5, 6, 7], "at most 6 sizes"),
    ("fold_confirm", "no", "on or off"),
    ("fold_confirm", 0, "on or off"),
    ("deck", "rainbow", "four_colour, two_colour"),
    ("deck", ["two_colour"], "four_colour, two_colour"),
]


@pytest.mark.parametrize(("name", "value", "words"), BAD)
def test_a_bad_value_is_refused_with_a_clear_error_and_nothing_changes(
    make_player, name, value, words
):
    ann = make_player("ann")
    preferences_set(
        user=ann, bet_sizes_postflop=[40, 80], bet_sizes_preflop=[2.5], deck="two_colour"
    )
    before = table_settings_for(ann)
    # A good change sent with the bad one is refused with it: nothing is half applied.
    good = {"deck": "four_colour"} if name != "deck" else {"fold_confirm": False}
    with pytest.raises(DomainError) as refused:
        preferences_set(user=ann, **good, **{name: value})
    assert refused.value.code == "bad_preferences"
    assert words in refused.value.message
    assert words in refused.value.fields[name]
    assert table_settings_for(ann) == before


def test_an_unknown_setting_is_refused(make_player):
    ann = make_player("ann")
    with pytest.raises(DomainError) as refused:
        preferences_set(user=ann, auto_top_up=True)
    assert refused.value.code == "bad_preferences" and "auto_top_up" in refused.value.message
    assert not Preferences.objects.exists()

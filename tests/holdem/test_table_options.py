"""Every table option is declared once (holdem/table_options.py), and the declaration is enough:
the model's columns, the admin's fieldsets, the engine's options, the presets and the rules
dialog all follow from it, and each option cites a section docs/rules.md has."""

from decimal import Decimal

import pytest

from holdem.admin.room_fields import ADMIN_GROUPS, OPTION_CHIP_COLUMNS, OPTION_FIELDS
from holdem.engine.options import HAND_OPTION_NAMES
from holdem.models import Table
from holdem.presets import PRESETS
from holdem.rules_words import BANK_REFILL_HANDS, BANK_REFILL_MS
from holdem.selectors.table_view import public_table
from holdem.table_options import (
    ENGINE_OPTION_NAMES,
    RULES_LINES,
    TABLE_OPTIONS,
    RoomOptions,
    Words,
    room_problems,
    rules_dialog,
    rules_of,
)
from tests.test_rules_citations import RULES_DOC, section_bodies, sections

DECLARED = {declared.name for declared in TABLE_OPTIONS}
RULES_TEXT = RULES_DOC.read_text(encoding="utf-8")


def test_every_option_column_of_a_room_is_declared_once():
    columns = [field.name for field in RoomOptions._meta.local_fields]
    assert columns == [declared.name for declared in TABLE_OPTIONS]
    assert len(DECLARED) == len(TABLE_OPTIONS)
    # The room's live state is not an option: the table keeps the two apart.
    state = {field.name for field in Table._meta.fields} - DECLARED
    assert {"hand_state", "turn_deadline", "seq", "button_seat", "status"} <= state


def test_every_option_has_an_admin_group_and_the_admin_shows_every_option():
    groups = [group for group, _ in ADMIN_GROUPS]
    assert {declared.group for declared in TABLE_OPTIONS} <= set(groups)
    assert set(OPTION_FIELDS) - DECLARED == {"name", "preset"}  # the room's own fields
    chips = {declared.name for declared in TABLE_OPTIONS if declared.chips}
    assert set(OPTION_CHIP_COLUMNS) == chips


def test_every_option_is_worded_in_the_rules_dialog():
    keys = [line.key for line in RULES_LINES]
    assert len(keys) == len(set(keys))
    for declared in TABLE_OPTIONS:
        assert declared.line in keys, declared.name
        if isinstance(declared.words, Words):
            assert declared.words.term and callable(declared.words.text)


def test_every_option_cites_a_section_of_the_rules_and_is_named_in_its_section_1():
    headings = sections(RULES_TEXT)
    for declared in TABLE_OPTIONS:
        assert declared.rule in headings, (declared.name, declared.rule)
    options_table = section_bodies(RULES_TEXT)[1]
    assert [name for name in sorted(DECLARED) if f"`{name}`" not in options_table] == []


def test_the_engine_reads_the_options_declared_as_its_own():
    assert ENGINE_OPTION_NAMES == HAND_OPTION_NAMES


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_a_preset_sets_declared_options_only_and_can_be_played(key):
    options = {name: value for name, value in PRESETS[key].items() if name != "name"}
    assert set(options) <= DECLARED
    assert room_problems(Table(name=PRESETS[key]["name"], **options)) == {}


def test_a_room_with_several_faults_hears_of_each():
    table = Table(name="x", seats=11, turn_seconds=2, chat="nobody", countdown_full_seconds=0)
    assert room_problems(table) == {
        "seats": "A room has 2 to 10 seats.",
        "turn_seconds": "A turn lasts at least 5 seconds.",
        "countdown_seconds": "Countdowns last at least 1 second.",
        "chat": "Chat is open to everyone or to seated players only.",
    }


# The rules dialog's words, made on the server.


def words(**options):
    rules = rules_dialog(rules_of(Table(name="x", **options)))
    return {row["key"]: row for row in rules}, [row["key"] for row in rules]


def test_a_no_limit_rooms_rules_every_option_in_words():
    lines, order = words(
        seats=9,
        structure="no_limit",
        blinds="fixed",
        small_blind=50,
        big_blind=100,
        raise_cap=None,
        min_buy_in=2_000,
        max_buy_in=20_000,
        entry="wait_or_post",
        disconnect="all_in_protection",
        rake_percent=Decimal("5.00"),
        rake_cap=300,
    )
    assert order == [
        "game",
        "stakes",
        "raise_cap",
        "min_raise",
        "buy_in",
        "entry",
        "disconnect",
        "turn",
        "time_bank",
        "countdown",
        "rake",
        "auto_muck",
        "separate_linked_accounts",
    ]
    assert lines["game"]["text"] == "No Limit Texas Hold'em, 9 seats."
    assert (
        "same browser may not sit at this table together"
        in (lines["separate_linked_accounts"]["text"])
    )
    assert lines["stakes"] == {
        "key": "stakes",
        "term": "Stakes and blinds",
        "text": "Bet or raise up to your whole stack. Blinds 50/100.",
    }
    assert lines["raise_cap"]["text"] == "No cap on the number of raises."
    assert lines["min_raise"]["text"].startswith("At least the largest bet or raise")
    assert lines["buy_in"]["text"].startswith(
        "2,000 to 20,000 chips. Leaving and coming back within 30 minutes"
    )
    assert lines["disconnect"]["text"].startswith("A dropped connection has 20 s to come back")
    assert "treated as all in for what you have already put in" in lines["disconnect"]["text"]
    assert lines["turn"]["text"].startswith("60 s to act;")
    assert lines["countdown"]["text"] == (
        "The next game starts 30 s after the last one (10 s when every seat is taken); "
        "you may get up meanwhile."
    )
    assert lines["rake"]["text"] == "5% of each pot that saw a flop, at most 300 chips a pot."
    assert lines["auto_muck"]["text"].startswith("Auto muck is on unless you change it")


def test_the_time_bank_line_states_the_refill_the_service_gives():
    lines, _ = words(time_bank_seconds=45)
    refill = f"{BANK_REFILL_MS // 1000} s every {BANK_REFILL_HANDS} hands"
    assert lines["time_bank"]["text"] == (
        f"45 s of extra time each, used when your turn clock runs out; it refills by {refill}."
    )
    assert refill in RULES_TEXT  # the rule book says the same
    lines, _ = words(time_bank_seconds=0)
    assert lines["time_bank"]["text"].startswith("No time bank:")


def test_a_fixed_limit_room_exact_bets_a_raise_cap_no_minimum_raise_line():
    options = {name: value for name, value in PRESETS["fl20"].items() if name != "name"}
    lines, order = words(**options)
    assert lines["game"]["text"] == "Fixed Limit Texas Hold'em, 10 seats."
    assert lines["stakes"]["text"] == (
        "Bets and raises of exactly 20 in the first two rounds and 40 in the last two. "
        "Blinds 10/20."
    )
    assert lines["raise_cap"]["text"].startswith("3 raises after the opening bet")
    assert "min_raise" not in order
    assert lines["buy_in"]["text"].startswith("At least 200 chips, up to your whole wallet.")
    assert lines["rake"]["text"] == "No rake."


def test_pot_limit_with_dynamic_blinds_and_a_room_only_players_may_chat_in():
    lines, _ = words(
        structure="pot_limit",
        blinds="dynamic",
        min_raise="any",
        min_buy_in=1,
        max_buy_in=None,
        chat="players",
        rake_percent=Decimal("2.50"),
        auto_muck=False,
    )
    assert lines["stakes"]["text"].startswith(
        "Bet or raise up to the size of the pot (after calling). Blinds are dynamic: the big "
        "blind is 10%"
    )
    assert lines["min_raise"]["text"] == "Any raise of 1 chip or more."
    assert lines["buy_in"]["text"].startswith("Your whole balance (you may bring less).")
    assert lines["chat"]["text"].startswith("Only the seated players may write in the chat")
    assert lines["rake"]["text"] == "2.5% of each pot that saw a flop."
    assert lines["auto_muck"]["text"].startswith("Auto muck is off")
    assert "chat" not in words()[1]  # open chat says nothing


@pytest.mark.django_db
def test_the_table_snapshot_carries_the_rooms_rules_in_words(room):
    table = room("nl50", time_bank_seconds=20)
    view = public_table(table)
    assert view["rules"] == rules_dialog(rules_of(table))
    assert {"key": "time_bank", "term": "Time bank"}.items() <= view["rules"][8].items()
    assert view["rules"][8]["text"].startswith("20 s of extra time each")

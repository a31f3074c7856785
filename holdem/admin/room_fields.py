"""A room's admin page, field by field: the option fieldsets of each betting structure, the
room's state (never edited), and chips shown with separators when read-only."""

from casino.accounts.formatting import chip_column
from holdem.admin.columns import hand_in_play, last_hand, seat_column
from holdem.models import Structure, Table

# RULES.md 1: the stakes each betting structure has. No-Limit and Pot-Limit rooms have blinds
# (fixed, or a percentage of the smallest stack); a Fixed-Limit room has a lower and a higher
# stake, and its blinds follow from the lower one.
BLIND_FIELDS = ("blinds", "small_blind", "big_blind", "dynamic_blind_percent")
LIMIT_FIELDS = ("small_bet", "big_bet")
# The class of a fieldset that belongs to some structures only (static/js/admin-room-structure.js).
STRUCTURE_CLASS = "structure-"

ROOM_FIELDSETS = (
    ("Room", {"fields": ("name", "preset", "seats")}),
    ("Betting structure", {"fields": ("structure",)}),
    (
        "Blinds",
        {
            "fields": BLIND_FIELDS,
            "classes": (
                STRUCTURE_CLASS + Structure.NO_LIMIT,
                STRUCTURE_CLASS + Structure.POT_LIMIT,
            ),
            "description": "No-Limit and Pot-Limit: fixed blinds, or dynamic ones (a percentage "
            "of the smallest stack dealt in, RULES.md 3).",
        },
    ),
    (
        "Limit stakes",
        {
            "fields": LIMIT_FIELDS,
            "classes": (STRUCTURE_CLASS + Structure.FIXED_LIMIT,),
            "description": "Fixed-Limit: the higher stake is twice the lower one (empty: twice); "
            "the small blind is half the lower stake, the big blind the lower stake (RULES.md 1).",
        },
    ),
    ("Raises", {"fields": ("raise_cap", "min_raise")}),
    ("Buy-in", {"fields": ("min_buy_in", "max_buy_in")}),
    ("Players", {"fields": ("entry", "disconnect", "disconnect_grace_seconds", "auto_muck")}),
    (
        "Clocks",
        {
            "fields": (
                "turn_seconds",
                "time_bank_seconds",
                "countdown_seconds",
                "countdown_full_seconds",
            )
        },
    ),
    ("Chat and rake", {"fields": ("chat", "rake_percent", "rake_cap")}),
)
CHANGED_STRUCTURE_NOTE = (
    "A new structure takes effect when you save: a Fixed-Limit room's lower stake becomes the big "
    "blind of its blinds, and a No-Limit or Pot-Limit room's big blind becomes the lower stake. "
    "The new structure's own fields show after saving."
)
OPTION_FIELDS = tuple(name for _, options in ROOM_FIELDSETS for name in options["fields"])
# Option fields in chips: shown with separators when read-only (a hand is running).
OPTION_CHIP_COLUMNS = {
    name: chip_column(name, Table._meta.get_field(name).verbose_name)
    for name in (
        "small_blind",
        "big_blind",
        "small_bet",
        "big_bet",
        "min_buy_in",
        "max_buy_in",
        "rake_cap",
    )
}
# The state of the room: the clock, the hand in play, counters. Never edited in a form.
STATE_FIELDS = (
    "status",
    "next_hand_at",
    "turn_deadline",
    "turn_token",
    "turn_bank_from",
    "show_or_muck_deadline",
    hand_in_play,
    last_hand,
    seat_column("button_seat", "button seat"),
    chip_column("hands_played", "hands played"),
    "hand_actions",
    "seq",
    "spectators",
    chip_column("rake_collected", "rake collected"),
    "created_at",
)


def chip_option(name):
    """An option field as a read-only page shows it: chips with separators."""
    return OPTION_CHIP_COLUMNS.get(name, name)


def for_structure(fieldsets, structure: str | None):
    """The fieldsets of a room of this structure (all of them when it is not known yet)."""
    for name, options in fieldsets:
        classes = [c for c in options.get("classes", ()) if c.startswith(STRUCTURE_CLASS)]
        if structure is None or not classes or STRUCTURE_CLASS + structure in classes:
            yield name, options

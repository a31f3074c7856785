"""A room's admin page, field by field: the option fieldsets (each option's group is declared in
holdem/table_options.py), the room's state (never edited), and chips shown with separators when
read-only."""

from casino.accounts.formatting import chip_column
from holdem.admin.columns import hand_in_play, last_hand, seat_column
from holdem.models import Structure, Table
from holdem.table_options import TABLE_OPTIONS

# The class of a fieldset that belongs to some structures only (static/js/admin-room-structure.js).
STRUCTURE_CLASS = "structure-"

# The option fieldsets in the page's order. Each option names its group (holdem/table_options.py)
# and joins its fieldset in the order the options are declared; the room's own fields come first.
ADMIN_GROUPS = (
    ("Room", {"fields": ("name", "preset")}),
    ("Betting structure", {}),
    (
        # RULES.md 1: No-Limit and Pot-Limit rooms have blinds (fixed, or a percentage of the
        # smallest stack); a Fixed-Limit room has a lower and a higher stake, and its blinds
        # follow from the lower one.
        "Blinds",
        {
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
            "classes": (STRUCTURE_CLASS + Structure.FIXED_LIMIT,),
            "description": "Fixed-Limit: the higher stake is twice the lower one (empty: twice); "
            "the small blind is half the lower stake, the big blind the lower stake (RULES.md 1).",
        },
    ),
    ("Raises", {}),
    ("Buy-in", {}),
    ("Players", {}),
    ("Clocks", {}),
    ("Chat and rake", {}),
)


def group_fields(group: str) -> tuple[str, ...]:
    return tuple(declared.name for declared in TABLE_OPTIONS if declared.group == group)


ROOM_FIELDSETS = tuple(
    (group, {**options, "fields": (*options.get("fields", ()), *group_fields(group))})
    for group, options in ADMIN_GROUPS
)
# The stakes each betting structure has (RULES.md 1).
BLIND_FIELDS = group_fields("Blinds")
LIMIT_FIELDS = group_fields("Limit stakes")
CHANGED_STRUCTURE_NOTE = (
    "A new structure takes effect when you save: a Fixed-Limit room's lower stake becomes the big "
    "blind of its blinds, and a No-Limit or Pot-Limit room's big blind becomes the lower stake. "
    "The new structure's own fields show after saving."
)
OPTION_FIELDS = tuple(name for _, options in ROOM_FIELDSETS for name in options["fields"])
# Option fields in chips: shown with separators when read-only (a hand is running).
OPTION_CHIP_COLUMNS = {
    declared.name: chip_column(declared.name, Table._meta.get_field(declared.name).verbose_name)
    for declared in TABLE_OPTIONS
    if declared.chips
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

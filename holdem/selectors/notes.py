"""A player's notes on other players and their colour tags, read for their author alone: at the
table (the snapshot, and a player arriving), in the lobby (tags only) and on the notes page."""

from collections.abc import Collection
from typing import Any

from casino.accounts.models import Preferences, User
from casino.accounts.preferences import preferences_for
from holdem.models import TAG_COLOURS, PlayerNote
from holdem.selectors.game_state import epoch_ms
from holdem.selectors.liveness import live_connections

# The names a colour tag has until its player renames it (rules.md 6).
DEFAULT_TAG_NAMES = {
    "red": "Red",
    "orange": "Orange",
    "yellow": "Yellow",
    "green": "Green",
    "teal": "Teal",
    "blue": "Blue",
    "purple": "Purple",
    "grey": "Grey",
}
TAG_NAME_MAX_CHARS = 24


def tag_names_of(user: User) -> dict[str, str]:
    """The player's name for each of the eight colours, in their fixed order (defaults filled)."""
    return tag_names_view(preferences_for(user))


def tag_names_view(preferences: Preferences) -> dict[str, str]:
    """tag_names_of from preferences already read."""
    stored = preferences.tag_names or {}
    return {key: str(stored.get(key) or DEFAULT_TAG_NAMES[key]) for key in TAG_COLOURS}


def note_view(note: PlayerNote, username: str) -> dict[str, Any]:
    """A note as its author's client reads it (docs/protocol.md, `note`)."""
    return {
        "user_id": note.subject_id,
        "username": username,
        "text": note.text,
        "colour": note.colour,
        "updated_at": epoch_ms(note.updated_at),
    }


def note_removed_view(subject: User) -> dict[str, Any]:
    """What the author's client is told of a note deleted: no text, no colour."""
    return {
        "user_id": subject.pk,
        "username": subject.username,
        "text": "",
        "colour": "",
        "updated_at": None,
    }


def notes_on(author: User, subject_ids: Collection[int]) -> list[dict[str, Any]]:
    """The author's notes on these players (the players at a table), in one query."""
    if not subject_ids:
        return []
    found = (
        PlayerNote.objects.filter(author=author, subject_id__in=list(subject_ids))
        .select_related("subject")
        .order_by("subject_id")
    )
    return [note_view(note, note.subject.username) for note in found]


def notes_of(author: User) -> list[PlayerNote]:
    """Every note of the author, their subjects read with them, by the subject's name."""
    return list(
        PlayerNote.objects.filter(author=author)
        .select_related("subject")
        .order_by("subject__username")
    )


def tags_of(author: User) -> list[dict[str, Any]]:
    """The players the author tagged with a colour, and the colour (the lobby's player lists):
    no note text, which the lobby does not show."""
    rows = (
        PlayerNote.objects.filter(author=author)
        .exclude(colour="")
        .values_list("subject_id", "subject__username", "colour")
        .order_by("subject_id")
    )
    return [{"user_id": uid, "username": name, "colour": colour} for uid, name, colour in rows]


def notes_for_arrivals(
    table_id: int, subject_ids: Collection[int]
) -> list[tuple[int, dict[str, Any]]]:
    """(author id, note) for each note written on a player just seated at this table by a user
    whose socket is open there: they learn it at once, their snapshot being older than the
    arrival. One query; users not watching are not looked up."""
    if not subject_ids:
        return []
    watching = live_connections().filter(table_id=table_id).values("user_id")
    found = PlayerNote.objects.filter(
        subject_id__in=list(subject_ids), author_id__in=watching
    ).select_related("subject")
    return [(note.author_id, note_view(note, note.subject.username)) for note in found]

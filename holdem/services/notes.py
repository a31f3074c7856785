"""A player's notes on other players and the names of their colour tags (rules.md 6): written
here, and told after the commit to the author's own sockets alone (style.md 5)."""

import unicodedata

from django.contrib.auth import get_user_model
from django.db import transaction

from casino.accounts.models import User
from casino.accounts.preferences import preferences_update
from casino.errors import DomainError
from holdem.models import NOTE_MAX_CHARS, TAG_COLOURS, PlayerNote
from holdem.realtime.broadcast import frame_message, send_on_commit, user_socket_group
from holdem.selectors.notes import (
    TAG_NAME_MAX_CHARS,
    note_removed_view,
    note_view,
    tag_names_of,
)

# A note keeps its lines and tabs; other control or invisible characters are refused (they hide
# text or reorder it on screen).
NOTE_KEEPS = {"\n", "\t"}


def _bad_characters(text: str, keep: set[str]) -> bool:
    return any(
        unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") and c not in keep for c in text
    )


def player_note_set(*, author: User, subject_id: int, text: str, colour: str) -> PlayerNote | None:
    """Write (or replace) the author's note and colour tag on another player; an empty note with
    no colour deletes it. Returns the note, or None when there is none now."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(text) > NOTE_MAX_CHARS:
        raise DomainError(
            "note_too_long", f"a note is at most {NOTE_MAX_CHARS:,} characters", fields={"text": ""}
        )
    if _bad_characters(text, NOTE_KEEPS):
        raise DomainError(
            "note_bad_text",
            "plain text only: no control or invisible characters",
            fields={"text": ""},
        )
    if colour and colour not in TAG_COLOURS:
        raise DomainError(
            "note_unknown_colour",
            f"the colour tags are {', '.join(TAG_COLOURS)}",
            fields={"colour": ""},
        )
    if subject_id == author.pk:
        raise DomainError("note_on_self", "you cannot write a note on yourself")
    subject = get_user_model().objects.filter(pk=subject_id).first()
    if subject is None:
        raise DomainError("no_user", "there is no such player")
    with transaction.atomic():
        if not text and not colour:
            PlayerNote.objects.filter(author=author, subject=subject).delete()
            note, told = None, note_removed_view(subject)
        else:
            note, _ = PlayerNote.objects.update_or_create(
                author=author, subject=subject, defaults={"text": text, "colour": colour}
            )
            told = note_view(note, subject.username)
        frame = {"type": "note", "note": told}
        send_on_commit([(user_socket_group(author.pk), frame_message(frame))])
    return note


def tag_names_set(*, user: User, names: dict[str, str]) -> dict[str, str]:
    """Rename some or all of the player's eight colour tags (`names`: colour -> name). Returns
    every tag's name now."""
    unknown = sorted(set(names) - set(TAG_COLOURS))
    if unknown:
        raise DomainError("tag_unknown_colour", f"the colour tags are {', '.join(TAG_COLOURS)}")
    cleaned: dict[str, str] = {}
    for colour, name in names.items():
        name = " ".join(str(name).split())  # one line, single spaces
        if not name:
            raise DomainError(
                "tag_name_empty", f"give the {colour} tag a name", fields={f"name_{colour}": ""}
            )
        if len(name) > TAG_NAME_MAX_CHARS:
            raise DomainError(
                "tag_name_too_long",
                f"a tag's name is at most {TAG_NAME_MAX_CHARS} characters ({colour})",
                fields={f"name_{colour}": ""},
            )
        if _bad_characters(name, set()):
            raise DomainError(
                "tag_name_bad_text",
                "plain text only: no control or invisible characters",
                fields={f"name_{colour}": ""},
            )
        cleaned[colour] = name
    with transaction.atomic():
        current = tag_names_of(user)
        preferences_update(user=user, tag_names={**current, **cleaned})
        now = {**current, **cleaned}
        frame = {"type": "tag_names", "tag_names": now}
        send_on_commit([(user_socket_group(user.pk), frame_message(frame))])
    return now

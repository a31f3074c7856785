"""The player's notes on other players (rules.md 6): their page (/accounts/notes/), where they
edit and delete notes and name the eight colour tags, and the JSON the table and the lobby ask
for. Every answer is of the signed-in player's own notes: no endpoint takes an author."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from casino.errors import DomainError
from holdem.models import NOTE_MAX_CHARS, TAG_COLOURS
from holdem.selectors.notes import (
    TAG_NAME_MAX_CHARS,
    note_view,
    notes_of,
    tag_names_of,
    tags_of,
)
from holdem.services.notes import player_note_set, tag_names_set


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _private(response):
    response["Cache-Control"] = "no-store, private"
    return response


def _refused(error: DomainError):
    refused = {"code": error.code, "message": error.message}
    if error.fields:
        refused["fields"] = error.fields
    return _private(JsonResponse({"error": refused}, status=400))


@login_required
def notes_page(request):
    """The player's notes, by player, and the names of their colour tags."""
    names = tag_names_of(request.user)
    notes = [
        {"note": note, "tag_name": names.get(note.colour, "")} for note in notes_of(request.user)
    ]
    return _private(
        render(
            request,
            "holdem/notes.html",
            {
                "notes": notes,
                "tags": [(key, names[key]) for key in TAG_COLOURS],
                "note_max": NOTE_MAX_CHARS,
                "tag_name_max": TAG_NAME_MAX_CHARS,
            },
        )
    )


@login_required
@require_GET
def tags_now(request):
    """The player's tag names and the players they tagged (the lobby colours its lists with it;
    the table's note dialog names its colours with it). No note text: the lobby shows none."""
    return _private(
        JsonResponse({"tag_names": tag_names_of(request.user), "tags": tags_of(request.user)})
    )


@login_required
@require_POST
def note_save(request, user_id):
    """Write, replace or (empty, no colour) delete the note on player `user_id`: the note as it
    is now (null when deleted) for a script, or back to the notes page for a form."""
    try:
        note = player_note_set(
            author=request.user,
            subject_id=user_id,
            text=request.POST.get("text", ""),
            colour=request.POST.get("colour", ""),
        )
    except DomainError as error:
        if _wants_json(request):
            return _refused(error)
        messages.error(request, f"Not saved: {error.message}.")
        return redirect("notes")
    if _wants_json(request):
        shown = note_view(note, note.subject.username) if note is not None else None
        return _private(JsonResponse({"note": shown}))
    messages.success(request, "Note saved." if note is not None else "Note deleted.")
    return redirect("notes")


@login_required
@require_POST
def tag_names_save(request):
    """Rename the colour tags (fields `name_<colour>`; a colour left out keeps its name)."""
    names = {
        key[len("name_") :]: value for key, value in request.POST.items() if key.startswith("name_")
    }
    try:
        now = tag_names_set(user=request.user, names=names)
    except DomainError as error:
        if _wants_json(request):
            return _refused(error)
        messages.error(request, f"Not saved: {error.message}.")
        return redirect("notes")
    if _wants_json(request):
        return _private(JsonResponse({"tag_names": now}))
    messages.success(request, "Tag names saved.")
    return redirect("notes")

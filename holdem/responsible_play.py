"""The Responsible play page (docs/rules.md 11): buy-in limits, the session reminder, a break and
a self-exclusion; and the figures the table's session reminder shows."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import capfirst
from django.views.decorators.http import require_GET

from casino.accounts.exclusions import (
    BREAK_LENGTHS,
    EXCLUSION_LENGTHS,
    LENGTHS,
    exclusion_message,
    exclusion_until,
    until_words,
)
from casino.accounts.formatting import chips
from casino.accounts.limits import (
    MAX_LIMIT,
    PERIOD_WORDS,
    buy_in_limit_set,
    buy_in_limits_for,
    when_words,
)
from casino.accounts.models import ExclusionKind, LimitPeriod
from casino.accounts.preferences import preferences_for
from casino.accounts.reminders import REMINDER_MINUTES, session_reminder_set
from casino.errors import DomainError
from holdem.selectors.play_session import play_session_of
from holdem.services.breaks import play_exclusion_take


@login_required
def responsible_play(request):
    """GET: the page. POST: one of its forms (`action`), answered on the page as a message; a
    break or a self-exclusion is asked to be confirmed first, then signs the player out."""
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "exclude":
            return _exclude(request)
        try:
            if action == "limit":
                _limit(request)
            elif action == "reminder":
                _reminder(request)
            else:
                raise DomainError("bad_action", "that is not something this page does")
        except DomainError as error:
            messages.error(request, f"{capfirst(error.message)}.")
        return redirect(f"{request.path}#{action if action in ('limit', 'reminder') else ''}")
    reminder = preferences_for(request.user).session_reminder_minutes
    return render(
        request,
        "accounts/responsible_play.html",
        {
            "limits": buy_in_limits_for(user=request.user),
            "max_limit": MAX_LIMIT,
            "reminder": reminder,
            "reminder_choices": REMINDER_MINUTES,
            "break_lengths": [(key, words) for key, (words, _) in BREAK_LENGTHS.items()],
            "exclusion_lengths": [(key, words) for key, (words, _) in EXCLUSION_LENGTHS.items()],
        },
    )


def _limit(request) -> None:
    period = request.POST.get("period", "")
    typed = request.POST.get("amount", "").strip().replace(",", "")
    if typed == "":
        amount = None
    else:
        try:
            amount = int(typed)
        except ValueError as error:
            raise DomainError("bad_amount", "a limit is a whole number of chips") from error
    row = buy_in_limit_set(user=request.user, period=period, amount=amount)
    words = PERIOD_WORDS[LimitPeriod(period)]
    if row.pending_from is not None:
        after = "no limit" if row.pending_amount is None else f"{chips(row.pending_amount)} chips"
        messages.success(
            request,
            f"Your {words} limit becomes {after} at {when_words(row.pending_from, timezone.now())}"
            " (a higher limit waits 24 hours).",
        )
    elif row.amount is None:
        messages.success(request, f"You have no {words} limit.")
    else:
        messages.success(request, f"Your {words} limit is now {chips(row.amount)} chips.")


def _reminder(request) -> None:
    typed = request.POST.get("minutes", "")
    if typed == "off":
        minutes = None
    else:
        try:
            minutes = int(typed)
        except ValueError as error:
            raise DomainError(
                "bad_reminder", "a reminder comes every 15, 30 or 60 minutes, or not at all"
            ) from error
    session_reminder_set(user=request.user, minutes=minutes)
    messages.success(
        request,
        "No session reminders."
        if minutes is None
        else f"A reminder every {minutes} minutes of play.",
    )


def _exclude(request):
    """The first post shows what it means and asks for a confirmation; the second, confirmed,
    takes it and signs out."""
    kind = request.POST.get("kind", "")
    length = request.POST.get("length", "")
    try:
        until = exclusion_until(kind=kind, length=length, now=timezone.now())
    except DomainError as error:
        messages.error(request, f"{capfirst(error.message)}.")
        return redirect(f"{request.path}#{kind or 'break'}")
    if request.POST.get("confirm") != "yes":
        return render(
            request,
            "accounts/exclusion_confirm.html",
            {
                "kind": kind,
                "length": length,
                "length_words": LENGTHS[ExclusionKind(kind)][length][0],
                "is_break": kind == ExclusionKind.BREAK,
                "until_words": until_words(until),
            },
        )
    try:
        exclusion = play_exclusion_take(user=request.user, kind=kind, length=length)
    except DomainError as error:
        messages.error(request, f"{capfirst(error.message)}.")
        return redirect(request.path)
    logout(request)
    messages.info(request, f"{exclusion_message(exclusion)}. You are signed out.")
    return redirect("login")


@login_required
@require_GET
def play_session(request):
    """The table's session reminder (static/js/session-reminder.js): its period and the session
    in progress, for this player only."""
    minutes = preferences_for(request.user).session_reminder_minutes
    now = timezone.now()
    session = play_session_of(user=request.user, now=now)
    return JsonResponse(
        {
            "reminder_minutes": minutes,
            "period_seconds": minutes * settings.CASINO_REMINDER_MINUTE_SECONDS
            if minutes
            else None,
            "now": now.isoformat(),
            "session": None
            if session is None
            else {
                "started_at": session.started_at.isoformat(),
                "played_seconds": session.played_seconds,
                "net": session.net,
                "seated": session.seated,
            },
        },
        headers={"Cache-Control": "no-store"},
    )

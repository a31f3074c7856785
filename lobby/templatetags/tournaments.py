"""Sit & Go words for templates (RULES.md 8): `{{ 4|place }}` -> "4th", `{{ s|level_length }}`
-> "10 min", `{{ s|seats_left }}`, and `{% your_tournaments %}`, the player's own tournaments on their profile."""

from django import template
from django.utils.dateparse import parse_datetime

from holdem.selectors.tournaments import tournaments_of

register = template.Library()


@register.filter
def place(number) -> str:
    """1 -> "1st", 12 -> "12th", 22 -> "22nd" (static/js/waiting.js ordinal says it the same way)."""
    if number is None or number == "":
        return ""
    n = int(number)
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@register.filter
def seats_left(sit_and_go) -> int:
    """The seats still to fill before a Sit & Go starts."""
    return max(0, int(sit_and_go.get("seats") or 0) - int(sit_and_go.get("registered") or 0))


@register.filter
def level_length(sit_and_go) -> str:
    """How long a level lasts: "10 min", "1.5 min", or under a minute "30 s" (as sit-and-go.js)."""
    seconds = int(sit_and_go.get("level_seconds") or 0)
    if seconds < 60:
        return f"{seconds} s"
    minutes = round(seconds / 60, 1)
    return f"{minutes:g} min"


@register.inclusion_tag("lobby/_your_tournaments.html", takes_context=True)
def your_tournaments(context):
    # The list's times are ISO text (JSON-ready); the page writes them as dates.
    return {
        "tournaments": [
            {**t, "finished_at": parse_datetime(t["finished_at"]) if t["finished_at"] else None}
            for t in tournaments_of(context["request"].user)
        ]
    }

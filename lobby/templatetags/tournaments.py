"""Tournament words for templates (RULES.md 8 and 9): `{{ 4|place }}` -> "4th", `{{ s|level_length }}`
-> "10 min", `{{ s|seats_left }}`, `{{ t|late_registration }}`, `{{ t.starts_at|epoch_moment }}`,
and `{% your_tournaments %}`, the player's own tournaments on their profile. static/js/scheduled.js
says the same words in the browser."""

from datetime import UTC, datetime

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


@register.filter
def late_registration(tournament) -> str:
    """RULES.md 9, a scheduled tournament's late registration (mtt_summary's shape): "Late
    registration until the end of level 4", "Late registration open until the end of level 4",
    "Late registration closed", "No late registration", "Full"; nothing once it is over."""
    status = tournament.get("status")
    levels = int(tournament.get("late_registration_levels") or 0)
    if status not in ("registering", "running"):
        return ""
    if status == "registering" and not tournament.get("registration_open"):
        return "Full"
    if status == "registering":
        return (
            f"Late registration until the end of level {levels}"
            if levels
            else "No late registration"
        )
    if tournament.get("registration_open"):
        return f"Late registration open until the end of level {levels}"
    level = (tournament.get("level") or {}).get("level", 0)
    return "Full" if levels and level <= levels else "Late registration closed"


@register.filter
def epoch_moment(epoch_ms):
    """An epoch-milliseconds time (the frames' shape) as a datetime for the `date` filter."""
    if epoch_ms is None or epoch_ms == "":
        return None
    return datetime.fromtimestamp(int(epoch_ms) / 1000, tz=UTC)


@register.inclusion_tag("lobby/_your_tournaments.html", takes_context=True)
def your_tournaments(context):
    # The list's times are ISO text (JSON-ready); the page writes them as dates.
    return {
        "tournaments": [
            {**t, "finished_at": parse_datetime(t["finished_at"]) if t["finished_at"] else None}
            for t in tournaments_of(context["request"].user)
        ]
    }

"""The staff's integrity queue: pairs of players scored for chip dumping and collusion, highest
first, each with the hands behind its score and links to act on the two accounts (freeze, the
leaderboard, moving chips back). What the numbers mean: docs/integrity.md."""

from urllib.parse import urlencode

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from casino.readonly_admin import ReadOnlyAdmin
from holdem.admin.columns import hand_link
from holdem.models import PairScore
from holdem.services.integrity import WEIGHTS


def account_link(user) -> str:
    url = reverse("admin:accounts_user_change", args=[user.pk])
    frozen = " (frozen)" if user.frozen_at else ""
    return format_html('<a href="{}">{}</a>{}', url, user.username, frozen)


def _signal(name: str):
    def column(score):
        return f"{getattr(score, name):.2f}"

    column.__name__ = name
    return admin.display(description=f"{name.replace('_', ' ')} (x{WEIGHTS[name]})", ordering=name)(
        column
    )


@admin.register(PairScore)
class PairScoreAdmin(ReadOnlyAdmin):
    list_display = (
        "score",
        "source_account",
        "target_account",
        "chips",
        *(_signal(name) for name in WEIGHTS),
        "hands_together",
        "hands",
        "computed_at",
    )
    list_select_related = ("source", "target")
    search_fields = ("source__username", "target__username")
    fields = readonly_fields = (
        "score",
        "source_account",
        "target_account",
        "chips",
        *(_signal(name) for name in WEIGHTS),
        "hands_together",
        "computed_at",
        "act",
        "hands_behind",
    )

    @admin.display(description="score", ordering="-total")
    def score(self, pair):
        return f"{pair.total:.0f}"

    @admin.display(description="chips from")
    def source_account(self, pair):
        return account_link(pair.source)

    @admin.display(description="to")
    def target_account(self, pair):
        return account_link(pair.target)

    @admin.display(description="net chips", ordering="net_chips")
    def chips(self, pair):
        return f"{pair.net_chips:,}"

    @admin.display(description="hands behind it")
    def hands(self, pair):
        shown = pair.hand_ids[:5]
        more = len(pair.hand_ids) - len(shown)
        links = format_html_join(", ", "{}", ((hand_link(h),) for h in shown))
        return format_html("{}{}", links, f" and {more} more" if more > 0 else "")

    @admin.display(description="hands behind the score (newest first)")
    def hands_behind(self, pair):
        return format_html_join(" ", "{}", ((hand_link(h),) for h in pair.hand_ids)) or "none"

    @admin.display(description="act")
    def act(self, pair):
        move = (
            reverse("admin:accounts_wallet_move")
            + "?"
            + urlencode({"from": pair.target.username, "to": pair.source.username})
        )
        return format_html(
            '<a href="{}">Freeze {}</a> · <a href="{}">Freeze {}</a> · '
            '<a href="{}">Move chips back from {} to {}</a>',
            reverse("admin:accounts_user_freeze", args=[pair.source_id]),
            pair.source.username,
            reverse("admin:accounts_user_freeze", args=[pair.target_id]),
            pair.target.username,
            move,
            pair.target.username,
            pair.source.username,
        )

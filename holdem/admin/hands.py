"""The hand history in the admin, read-only: a hand's page is the hand as a person reads it, the
action log row by row; a hand still being played shows nothing of itself."""

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.urls import reverse

from casino.accounts.formatting import CHIP_COLUMNS_CSS, chip_column, chips
from casino.readonly_admin import ReadOnlyAdmin
from holdem.admin.cards_hidden import CardsHiddenAdmin
from holdem.admin.columns import game_number, hand_number, hand_of_action, hand_page, seat_column
from holdem.admin.hand_reading import hand_reading, hand_rules, hand_stakes
from holdem.models import HandAction, HandRecord, Structure
from holdem.selectors.closed_names import hand_as_shown


@admin.register(HandRecord)
class HandRecordAdmin(CardsHiddenAdmin, ReadOnlyAdmin):
    """The hand history. A hand's page is the hand as its history page reads (change_form_template),
    never its stored columns; a hand still being played shows nothing of itself."""

    list_display = (
        hand_number,
        "table",
        game_number,
        "started_at",
        "ended_at",
        chip_column("rake"),
    )
    list_filter = ("table",)
    list_select_related = ("table",)
    change_form_template = "admin/holdem/handrecord/change_form.html"

    class Media:
        css = {"all": (*CHIP_COLUMNS_CSS["all"], "admin/casino/hand-record.css")}

    def get_fields(self, request, obj=None):
        return ()  # the page is built from hand_reading, not from the columns

    def change_view(self, request, object_id, form_url="", extra_context=None):
        record = self.get_object(request, unquote(object_id))
        context = dict(extra_context or {})
        if record is not None and self.has_view_or_change_permission(request, record):
            over = record.ended_at is not None
            context.update(
                title=f"Hand #{record.pk}",
                subtitle=None,
                record=record,
                structure=Structure(record.options["structure"]).label,
                stakes=hand_stakes(record.options),
                rules=hand_rules(record.options),
                # RULES.md 10: a closed account under its name of now, for staff too.
                hand=hand_reading(hand_as_shown(record)) if over else None,
                button_seat=record.button_seat + 1,
                actions_url=reverse("admin:holdem_handaction_changelist")
                + f"?hand__id__exact={record.pk}",
            )
        return super().change_view(request, object_id, form_url, context)


SEAT = seat_column()
AMOUNT = chip_column("amount")


@admin.register(HandAction)
class HandActionAdmin(CardsHiddenAdmin, ReadOnlyAdmin):
    """The action log, row by row (the hand's page reads it as a story)."""

    list_display = (
        hand_of_action,
        "index",
        "street",
        SEAT,
        "user",
        "action",
        AMOUNT,
        "source",
        "created_at",
    )
    list_filter = ("source", "action")
    list_select_related = ("user",)
    change_form_template = "admin/holdem/handaction/change_form.html"

    class Media:
        css = CHIP_COLUMNS_CSS

    fields = readonly_fields = (
        hand_page,
        "index",
        "street",
        SEAT,
        "user",
        "action",
        AMOUNT,
        "source",
        "client_action_id",
        "created_at",
    )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        action = self.get_object(request, unquote(object_id))
        context = dict(extra_context or {})
        if action is not None:
            # The model's own name for a row counts seats from 0; the page says what the site says.
            amount = f" {chips(action.amount)}" if action.amount is not None else ""
            context.update(
                title=f"Hand #{action.hand_id}, action {action.index}",
                subtitle=f"Seat {action.seat + 1}: {action.action}{amount}",
            )
        return super().change_view(request, object_id, form_url, context)

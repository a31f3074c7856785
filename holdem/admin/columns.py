"""List and page columns naming seats and hands as the site does: seats counted from 1, hands as
Hand #<pk>, linked to their admin page."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from casino.accounts.formatting import NO_VALUE


def seat_column(field: str = "seat", description: str = "seat"):
    """A seat number as the site shows it, counted from 1 (stored from 0), sorted by the stored
    field. Named after the field, so its cells keep the class `field-<name>`."""

    def column(obj):
        number = getattr(obj, field)
        return NO_VALUE if number is None else number + 1

    column.__name__ = field
    return admin.display(description=description, ordering=field)(column)


def hand_link(hand_id: int | None) -> str:
    """A hand by the number the site gives it (Hand #<pk>), linked to its admin page."""
    if hand_id is None:
        return NO_VALUE
    url = reverse("admin:holdem_handrecord_change", args=[hand_id])
    return format_html('<a href="{}">Hand #{}</a>', url, hand_id)


@admin.display(description="hand", ordering="pk")
def hand_number(record):
    return f"Hand #{record.pk}"


@admin.display(description="game at its table", ordering="number")
def game_number(record):
    return record.number


@admin.display(description="hand", ordering="hand_id")
def hand_of_action(action):
    return f"Hand #{action.hand_id}"


@admin.display(description="hand")
def hand_page(action):
    return hand_link(action.hand_id)


@admin.display(description="hand in play")
def hand_in_play(table):
    return hand_link(table.hand_id)


@admin.display(description="last hand")
def last_hand(table):
    return hand_link(table.last_hand_id)

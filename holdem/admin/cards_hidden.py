"""Card columns the admin never shows: left out of every form and page, refused as list filters.
No admin page shows, or filters by, a card nobody at the table saw: staff included."""

from django.contrib import admin
from django.core.exceptions import FieldDoesNotExist
from django.db.models.constants import LOOKUP_SEP

from holdem.models import HandRecord, Table

# Columns holding cards nobody may see while the hand is played: the table's engine JSON (every
# hole card, the undealt stub) and the hand record's deck and engine JSON. Once the hand is over
# they still hold the folded and mucked hands and the cards never dealt: no page shows them.
# The salts too: with a position's salt, its leaf of the published commitment names its card.
CARD_COLUMNS = {
    Table: frozenset({"hand_state"}),
    HandRecord: frozenset({"deck", "salts", "final_state"}),
}


def reads_a_card_column(model, lookup: str) -> bool:
    """Whether a lookup path such as `hand__table__hand_state__contains` reads a card column."""
    for part in lookup.split(LOOKUP_SEP):
        if part in CARD_COLUMNS.get(model, ()):
            return True
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False  # a lookup or a transform: the path through the models has ended
        if not field.is_relation:
            return False
        model = field.related_model
    return False


class CardsHiddenAdmin(admin.ModelAdmin):
    """Leaves card columns out of every form and read-only page, and refuses any list filter that
    reads one: a list answering "one row" or "none" to ?deck__0=As tells the cards a guess at a time
    (Django allows filtering a list by any column of its own model in the query string)."""

    def hidden_columns(self, obj) -> frozenset:
        return CARD_COLUMNS.get(self.model, frozenset())

    def without_hidden(self, fieldsets, obj):
        hidden = self.hidden_columns(obj)

        def shown(fields):
            for field in fields:
                if isinstance(field, (list, tuple)):  # fields shown on one line
                    if line := tuple(name for name in field if name not in hidden):
                        yield line
                elif field not in hidden:
                    yield field

        return [
            (name, {**options, "fields": list(shown(options["fields"]))})
            for name, options in fieldsets
        ]

    def get_fieldsets(self, request, obj=None):
        return self.without_hidden(super().get_fieldsets(request, obj), obj)

    def lookup_allowed(self, lookup, value, request=None):
        return not reads_a_card_column(self.model, lookup) and super().lookup_allowed(
            lookup, value, request
        )

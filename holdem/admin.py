"""Admin: rooms (from a preset or by hand, validated; close/reopen), read-only hand history.
No admin page shows, or filters by, a card of a hand in play: staff included, superusers too."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models.constants import LOOKUP_SEP
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from casino.errors import DomainError
from casino.readonly_admin import ReadOnlyAdmin
from holdem.models import ChatBan, ChatLine, HandAction, HandRecord, Table
from holdem.options import room_problems
from holdem.presets import PRESETS
from holdem.selectors import stakes_label
from holdem.services import room_close, room_create, room_reopen

STATE_FIELDS = (
    "status",
    "next_hand_at",
    "turn_deadline",
    "turn_token",
    "turn_bank_from",
    "hand",
    "last_hand",
    "button_seat",
    "hands_played",
    "hand_actions",
    "seq",
    "rake_collected",
    "created_at",
)

# Columns holding cards nobody may see while the hand is played: the table's engine JSON (every
# hole card, the undealt stub) and the hand record's deck and engine JSON.
CARD_COLUMNS = {Table: frozenset({"hand_state"}), HandRecord: frozenset({"deck", "final_state"})}


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

    def get_fieldsets(self, request, obj=None):
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
            for name, options in super().get_fieldsets(request, obj)
        ]

    def lookup_allowed(self, lookup, value, request=None):
        return not reads_a_card_column(self.model, lookup) and super().lookup_allowed(
            lookup, value, request
        )


class TableForm(forms.ModelForm):
    class Meta:
        model = Table
        exclude = ("hand_state",)  # noqa: DJ006 (every field but the engine's; fieldsets choose the rest)

    def clean(self):
        cleaned = super().clean()
        candidate = Table(
            **{k: v for k, v in cleaned.items() if k in {f.name for f in Table._meta.fields}}
        )
        problems = room_problems(candidate)
        if problems:
            raise ValidationError(
                {k: v for k, v in problems.items() if k in self.fields} or list(problems.values())
            )
        return cleaned


class PresetRoomForm(forms.Form):
    name = forms.CharField(max_length=80)
    preset = forms.ChoiceField(choices=[(k, v["name"]) for k, v in PRESETS.items()])

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if Table.objects.filter(name=name).exists():
            raise ValidationError("A room with this name exists already.")
        return name


@admin.register(Table)
class TableAdmin(CardsHiddenAdmin):
    form = TableForm
    list_display = (
        "name",
        "structure",
        "stakes",
        "seats",
        "players",
        "status",
        "hands_played",
        "rake_collected",
    )
    list_filter = ("status", "structure")
    search_fields = ("name",)
    readonly_fields = STATE_FIELDS
    actions = ("close_rooms", "reopen_rooms")
    change_list_template = "admin/holdem/table_changelist.html"

    @admin.display(description="stakes")
    def stakes(self, table):
        return stakes_label(table)

    @admin.display(description="players")
    def players(self, table):
        return table.seat_set.count()

    def has_delete_permission(self, request, obj=None):
        return False  # rooms keep their hand history; close them instead

    def get_readonly_fields(self, request, obj=None):
        # Options of a room with a hand running cannot change under the players' feet.
        if obj is not None and obj.in_hand:
            return [
                f.name
                for f in Table._meta.fields
                if f.name != "id" and f.name not in CARD_COLUMNS[Table]
            ]
        return STATE_FIELDS

    def get_urls(self):
        return [
            path(
                "from-preset/",
                self.admin_site.admin_view(self.from_preset_view),
                name="holdem_table_from_preset",
            ),
            *super().get_urls(),
        ]

    def from_preset_view(self, request):
        if not self.has_add_permission(request):
            return redirect("admin:index")
        form = PresetRoomForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            table = room_create(name=form.cleaned_data["name"], preset=form.cleaned_data["preset"])
            messages.success(request, f"Room {table.name} is open.")
            return redirect("admin:holdem_table_change", table.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "form": form,
            "title": "Add a room from a preset",
        }
        return TemplateResponse(request, "admin/holdem/table_from_preset.html", context)

    @admin.action(description="Close the selected rooms (hands in progress finish first)")
    def close_rooms(self, request, queryset):
        for table in queryset:
            room_close(table_id=table.pk)
        messages.success(request, f"{queryset.count()} room(s) closed or closing.")

    @admin.action(description="Reopen the selected rooms")
    def reopen_rooms(self, request, queryset):
        for table in queryset:
            try:
                room_reopen(table_id=table.pk)
            except DomainError as error:
                messages.error(request, f"{table.name}: {error.message}")


class HandActionInline(admin.TabularInline):
    model = HandAction
    fields = (
        "index",
        "street",
        "seat",
        "user",
        "action",
        "amount",
        "source",
        "client_action_id",
        "created_at",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(HandRecord)
class HandRecordAdmin(CardsHiddenAdmin, ReadOnlyAdmin):
    list_display = ("id", "table", "number", "started_at", "ended_at", "rake")
    list_filter = ("table",)
    fields = (
        "table",
        "number",
        "started_at",
        "ended_at",
        "button_seat",
        "options",
        "players",
        "board",
        "pots",
        "shown",
        "rake",
        "deck",
    )
    inlines = (HandActionInline,)

    def hidden_columns(self, obj):
        # Once the hand is over its deck is history; until then it is the future of the hand.
        if obj is not None and obj.ended_at is not None:
            return super().hidden_columns(obj) - {"deck"}
        return super().hidden_columns(obj)


@admin.register(HandAction)
class HandActionAdmin(CardsHiddenAdmin, ReadOnlyAdmin):
    list_display = (
        "hand",
        "index",
        "street",
        "seat",
        "user",
        "action",
        "amount",
        "source",
        "created_at",
    )
    list_filter = ("source", "action")


@admin.register(ChatLine)
class ChatLineAdmin(ReadOnlyAdmin):
    """Every chat line, as it was written: who, at which table, when."""

    list_display = ("created_at", "table", "user", "text")
    list_filter = ("table",)
    search_fields = ("text", "user__username")
    date_hierarchy = "created_at"


@admin.register(ChatBan)
class ChatBanAdmin(admin.ModelAdmin):
    """Mute a user on every table of the site, with a reason; the staff member is recorded."""

    list_display = ("user", "reason", "banned_by", "created_at")
    search_fields = ("user__username", "reason")
    fields = ("user", "reason", "banned_by", "created_at")
    readonly_fields = ("banned_by", "created_at")
    raw_id_fields = ("user",)

    def save_model(self, request, obj, form, change):
        obj.banned_by = request.user
        super().save_model(request, obj, form, change)

"""Admin: rooms (from a preset or by hand, validated; close/reopen), the hand history as a person
reads it. No admin page shows, or filters by, a card nobody at the table saw: staff included."""

import copy

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import FieldDoesNotExist
from django.db.models.constants import LOOKUP_SEP
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from casino.accounts.formatting import (
    CHIP_COLUMNS_CSS,
    NO_VALUE,
    chip_column,
    chips,
    signed_chips,
)
from casino.errors import DomainError
from casino.readonly_admin import ReadOnlyAdmin
from holdem.history import cards_text, hand_story, pokerstars_text
from holdem.models import (
    Blinds,
    ChatBan,
    ChatLine,
    HandAction,
    HandRecord,
    MinRaise,
    Structure,
    Table,
)
from holdem.options import room_problems
from holdem.presets import PRESETS
from holdem.selectors import stakes_label
from holdem.services import room_close, room_create, room_reopen

# Columns holding cards nobody may see while the hand is played: the table's engine JSON (every
# hole card, the undealt stub) and the hand record's deck and engine JSON. Once the hand is over
# they still hold the folded and mucked hands and the cards never dealt: no page shows them.
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


# RULES.md 1: the stakes each betting structure has. No-Limit and Pot-Limit rooms have blinds
# (fixed, or a percentage of the smallest stack); a Fixed-Limit room has a lower and a higher
# stake, and its blinds follow from the lower one.
BLIND_FIELDS = ("blinds", "small_blind", "big_blind", "dynamic_blind_percent")
LIMIT_FIELDS = ("small_bet", "big_bet")
# The class of a fieldset that belongs to some structures only (static/js/admin-room-structure.js).
STRUCTURE_CLASS = "structure-"

ROOM_FIELDSETS = (
    ("Room", {"fields": ("name", "preset", "seats")}),
    ("Betting structure", {"fields": ("structure",)}),
    (
        "Blinds",
        {
            "fields": BLIND_FIELDS,
            "classes": (
                STRUCTURE_CLASS + Structure.NO_LIMIT,
                STRUCTURE_CLASS + Structure.POT_LIMIT,
            ),
            "description": "No-Limit and Pot-Limit: fixed blinds, or dynamic ones (a percentage "
            "of the smallest stack dealt in, RULES.md 3).",
        },
    ),
    (
        "Limit stakes",
        {
            "fields": LIMIT_FIELDS,
            "classes": (STRUCTURE_CLASS + Structure.FIXED_LIMIT,),
            "description": "Fixed-Limit: the higher stake is twice the lower one (empty: twice); "
            "the small blind is half the lower stake, the big blind the lower stake (RULES.md 1).",
        },
    ),
    ("Raises", {"fields": ("raise_cap", "min_raise")}),
    ("Buy-in", {"fields": ("min_buy_in", "max_buy_in")}),
    ("Players", {"fields": ("entry", "disconnect", "disconnect_grace_seconds", "auto_muck")}),
    (
        "Clocks",
        {
            "fields": (
                "turn_seconds",
                "time_bank_seconds",
                "countdown_seconds",
                "countdown_full_seconds",
            )
        },
    ),
    ("Chat and rake", {"fields": ("chat", "rake_percent", "rake_cap")}),
)
CHANGED_STRUCTURE_NOTE = (
    "A new structure takes effect when you save: a Fixed-Limit room's lower stake becomes the big "
    "blind of its blinds, and a No-Limit or Pot-Limit room's big blind becomes the lower stake. "
    "The new structure's own fields show after saving."
)
OPTION_FIELDS = tuple(name for _, options in ROOM_FIELDSETS for name in options["fields"])
# Option fields in chips: shown with separators when read-only (a hand is running).
OPTION_CHIP_COLUMNS = {
    name: chip_column(name, Table._meta.get_field(name).verbose_name)
    for name in (
        "small_blind",
        "big_blind",
        "small_bet",
        "big_bet",
        "min_buy_in",
        "max_buy_in",
        "rake_cap",
    )
}
# The state of the room: the clock, the hand in play, counters. Never edited in a form.
STATE_FIELDS = (
    "status",
    "next_hand_at",
    "turn_deadline",
    "turn_token",
    "turn_bank_from",
    "show_or_muck_deadline",
    hand_in_play,
    last_hand,
    seat_column("button_seat", "button seat"),
    chip_column("hands_played", "hands played"),
    "hand_actions",
    "seq",
    "spectators",
    chip_column("rake_collected", "rake collected"),
    "created_at",
)


def chip_option(name):
    """An option field as a read-only page shows it: chips with separators."""
    return OPTION_CHIP_COLUMNS.get(name, name)


def for_structure(fieldsets, structure: str | None):
    """The fieldsets of a room of this structure (all of them when it is not known yet)."""
    for name, options in fieldsets:
        classes = [c for c in options.get("classes", ()) if c.startswith(STRUCTURE_CLASS)]
        if structure is None or not classes or STRUCTURE_CLASS + structure in classes:
            yield name, options


class TableForm(forms.ModelForm):
    """A room by hand. A Fixed-Limit room needs no blinds (they follow from its lower stake) and a
    No-Limit or Pot-Limit room no limit stakes (ignored), whether or not the page's script took
    the other structure's fields off the form."""

    class Meta:
        model = Table
        exclude = ("hand_state",)  # noqa: DJ006 (every field but the engine's; fieldsets choose the rest)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in (*BLIND_FIELDS, *LIMIT_FIELDS):
            if name in self.fields:
                self.fields[name].required = False  # clean() asks for the structure's own

    def clean(self):
        cleaned = super().clean()
        structure = cleaned.get("structure") or self.instance.structure
        stakes = self._stakes(cleaned, structure)
        for name, value in stakes.items():
            if name in self.errors:
                continue
            if name in self.fields:
                cleaned[name] = value
            else:
                setattr(self.instance, name, value)  # a field this page does not show
        candidate = copy.copy(self.instance)
        for name, value in cleaned.items():
            if name in OPTION_FIELDS:
                setattr(candidate, name, value)
        for name, problem in room_problems(candidate).items():
            if name in self.fields:
                if name not in self.errors:
                    self.add_error(name, problem)
            else:
                label = Table._meta.get_field(name).verbose_name
                self.add_error(None, f"{label[:1].upper()}{label[1:]}: {problem}")
        return cleaned

    def _stakes(self, cleaned, structure) -> dict:
        """The blinds and limit stakes to store for this structure (RULES.md 1 and 7). Stakes the
        page did not send (hidden by the script, or not on a saved room's page) or left empty
        take the structure's own values; those it sent are checked by room_problems."""
        names = (*BLIND_FIELDS, *LIMIT_FIELDS)
        given = {
            name: cleaned[name]
            for name in names
            if name in self.fields and cleaned.get(name) not in (None, "")
        }
        stakes = {name: given.get(name, getattr(self.instance, name)) for name in names}
        if structure != Structure.FIXED_LIMIT:
            needed = {"blinds"} | (
                {"small_blind", "big_blind"}
                if stakes["blinds"] == Blinds.FIXED
                else {"dynamic_blind_percent"}
            )
            for name in sorted(needed & self.fields.keys() - given.keys() - self.errors.keys()):
                self.add_error(name, "This field is required.")
            return {**stakes, "small_bet": 0, "big_bet": 0}  # not this structure's
        if "small_bet" not in given:
            if "small_bet" in self.fields:
                if "small_bet" not in self.errors:
                    self.add_error("small_bet", "This field is required.")
                return stakes
            if not stakes["small_bet"]:
                stakes["small_bet"] = stakes["big_blind"]  # the room was No-Limit or Pot-Limit
        lower = stakes["small_bet"]
        derived = {"big_bet": 2 * lower, "blinds": Blinds.FIXED}
        if lower // 2 >= 1:
            derived.update(small_blind=lower // 2, big_blind=lower)
        return {**stakes, **{k: v for k, v in derived.items() if k not in given}}


class PresetRoomForm(forms.Form):
    name = forms.CharField(max_length=80)
    preset = forms.ChoiceField(choices=[(k, v["name"]) for k, v in PRESETS.items()])

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if Table.objects.filter(name=name).exists():
            raise forms.ValidationError("A room with this name exists already.")
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
        chip_column("hands_played", "hands played"),
        chip_column("rake_collected", "rake collected"),
    )
    list_filter = ("status", "structure")
    search_fields = ("name",)
    actions = ("close_rooms", "reopen_rooms")
    change_list_template = "admin/holdem/table_changelist.html"

    class Media:
        js = (forms.Script("js/admin-room-structure.js", type="module"),)
        css = CHIP_COLUMNS_CSS

    @admin.display(description="stakes")
    def stakes(self, table):
        return stakes_label(table)

    @admin.display(description="players")
    def players(self, table):
        return table.seat_set.count()

    def has_delete_permission(self, request, obj=None):
        return False  # rooms keep their hand history; close them instead

    def get_fieldsets(self, request, obj=None):
        # A saved room shows its own structure's stakes only; a new one shows all of them and the
        # script hides the ones the chosen structure does not have.
        fieldsets = list(for_structure(ROOM_FIELDSETS, obj.structure if obj else None))
        if obj is not None and obj.in_hand:
            fieldsets = [
                (name, {**options, "fields": [chip_option(f) for f in options["fields"]]})
                for name, options in fieldsets
            ]
        elif obj is not None:
            fieldsets = [
                (name, {**options, "description": CHANGED_STRUCTURE_NOTE})
                if "structure" in options["fields"]
                else (name, options)
                for name, options in fieldsets
            ]
        if obj is not None:
            fieldsets.append(("State", {"fields": STATE_FIELDS, "classes": ("collapse",)}))
        return self.without_hidden(fieldsets, obj)

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        if obj.in_hand:
            # Options of a room with a hand running cannot change under the players' feet.
            return (*(chip_option(f) for f in OPTION_FIELDS), *STATE_FIELDS)
        return STATE_FIELDS

    def save_model(self, request, obj, form, change):
        if change:
            # The room's options only: the game's columns (the hand in play, its clocks, its
            # sequence number) may have moved on since this request read the row, and saving
            # the whole row would put them back.
            obj.save(update_fields=OPTION_FIELDS)
        else:
            super().save_model(request, obj, form, change)

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
            try:
                table = room_create(
                    name=form.cleaned_data["name"], preset=form.cleaned_data["preset"]
                )
            except DomainError as error:
                for name, problem in (error.fields or {None: error.message}).items():
                    form.add_error(name if name in form.fields else None, problem)
            else:
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


def card_faces(codes) -> list[dict]:
    """Cards as the history page writes them ("A♠"), each with its suit for the colour."""
    return [{"code": code, "text": cards_text([code]), "suit": code[1]} for code in codes]


def hand_reading(record: HandRecord) -> dict:
    """A finished hand as its page shows it: the history's public record (holdem.history
    hand_story: blinds, actions with their chips, streets, shows and mucks, pots) laid out street
    by street, and the players with the hands the table saw. No folded or mucked hole card, no
    card of the deck that was not dealt face up."""
    story = hand_story(record)
    result = record.result or {}
    shown = {int(seat): cards for seat, cards in (record.shown or {}).items()}
    best = {int(seat): value for seat, value in (result.get("best") or {}).items()}
    payouts = {int(seat): amount for seat, amount in (result.get("payouts") or {}).items()}
    mucked = set(result.get("mucked") or ())
    folded = {line["seat"] for line in story["story"] if line.get("action") == "fold"}
    streets = [{"title": "Pre-flop", "lines": []}]
    for line in story["story"]:
        if line["kind"] == "pot_awarded":
            continue  # the pots table says who collected what
        if line["kind"] == "street":
            streets.append({"title": line["text"], "lines": []})
        elif line["street"] == "showdown":
            if streets[-1]["title"] != "Showdown":
                streets.append({"title": "Showdown", "lines": []})
            streets[-1]["lines"].append(line["text"])
        else:
            streets[-1]["lines"].append(line["text"])
    players = []
    for p in record.players:
        seat = p["seat"]
        if seat in shown:
            end = (best.get(seat) or {}).get("category", "shown")
        elif seat in folded:
            end = "folded"
        elif seat in mucked:
            end = "mucked"
        else:
            end = "not shown"
        net = p["stack_after"] - p["stack_before"]
        players.append(
            {
                "seat": seat + 1,
                "username": p["username"],
                "user_url": reverse("admin:accounts_user_change", args=[p["user_id"]]),
                "button": seat == record.button_seat,
                "cards": card_faces(shown.get(seat, ())),
                "end": end,
                "before": chips(p["stack_before"]),
                "after": chips(p["stack_after"]),
                "net": signed_chips(net),
                "net_sign": (net > 0) - (net < 0),
                "collected": chips(payouts[seat]) if payouts.get(seat) else "",
            }
        )
    pots = [
        {
            "label": pot["label"],
            "amount": chips(pot["amount"]),
            "rake": chips(pot["rake"]) if pot.get("rake") else "",
            "collected": [(c["username"], chips(c["amount"])) for c in pot["collected"]],
        }
        for pot in story["pots"]
    ]
    return {
        "players": players,
        "streets": streets,
        "board": card_faces(record.board),
        "pots": pots,
        "total_pot": chips(sum(pot["amount"] for pot in story["pots"])),
        "rake": chips(record.rake),
        "pokerstars": pokerstars_text(record),
    }


def hand_stakes(options: dict) -> str:
    """The stakes of one hand from its options, as the lobby writes a room's."""
    if options["structure"] == Structure.FIXED_LIMIT:
        return (
            f"bets {chips(options['small_bet'])}/{chips(options['big_bet'])}, "
            f"blinds {chips(options['small_blind'])}/{chips(options['big_blind'])}"
        )
    return f"blinds {chips(options['small_blind'])}/{chips(options['big_blind'])}"


def hand_rules(options: dict) -> list[str]:
    """The hand's other betting rules, in words."""
    cap = options.get("raise_cap")
    rules = [
        f"raises capped at {cap} a round" if cap is not None else "no raise cap",
        f"minimum raise: {MinRaise(options.get('min_raise', MinRaise.FULL)).label}",
    ]
    if options.get("rake_percent"):
        rake_cap = options.get("rake_cap")
        rules.append(
            f"rake {options['rake_percent']}%"
            + (f" up to {chips(rake_cap)}" if rake_cap is not None else "")
        )
    return rules


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
                hand=hand_reading(record) if over else None,
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

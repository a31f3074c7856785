"""The rooms in the admin: created from a preset or by hand, options locked while a hand runs,
closed and reopened through the services; never deleted."""

from django import forms
from django.contrib import admin, messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path

from casino.accounts.formatting import CHIP_COLUMNS_CSS, chip_column
from casino.errors import DomainError
from holdem.admin.cards_hidden import CardsHiddenAdmin
from holdem.admin.room_fields import (
    CHANGED_STRUCTURE_NOTE,
    OPTION_FIELDS,
    ROOM_FIELDSETS,
    STATE_FIELDS,
    chip_option,
    for_structure,
)
from holdem.admin.room_forms import PresetRoomForm, TableForm
from holdem.models import Table, TableKind
from holdem.selectors.game_state import stakes_label
from holdem.services import room_close, room_create, room_reopen
from holdem.services.rooms import room_add, room_options_update


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
    list_filter = ("kind", "status", "structure")
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

    def has_change_permission(self, request, obj=None):
        # A Sit & Go's table plays by its tournament (RULES.md 8): seen here, never changed.
        if obj is not None and obj.kind != TableKind.CASH:
            return False
        return super().has_change_permission(request, obj)

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
            room_options_update(table=obj, fields=OPTION_FIELDS)
        else:
            room_add(table=obj)  # the form checked the options with the same rules

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

"""Sit & Go templates (RULES.md 8: what an admin sets, the three presets shipped), the Sit & Gos
(registering, running and finished, with their entrants, places and prizes), and the scheduled
multi-table tournaments (RULES.md 9), which staff schedule and edit here through the services.
No card is shown here. Staff may cancel a tournament before it starts; its players get their
money back."""

import copy

from django import forms
from django.contrib import admin, messages
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from casino.accounts.formatting import CHIP_COLUMNS_CSS, chip_column, chips
from casino.errors import DomainError
from casino.readonly_admin import ReadOnlyAdmin
from holdem.models import (
    ScheduledTournament,
    SitGoTemplate,
    Table,
    TableStatus,
    Tournament,
    TournamentEntry,
    TournamentKind,
    TournamentStatus,
)
from holdem.selectors.multi_table import mtt_prize_table
from holdem.services.multi_table import tournament_schedule
from holdem.services.scheduling import (
    SCHEDULE_FIELDS,
    changeable_fields,
    frozen_changes,
    schedule_refusal,
    scheduled_tournament_update,
)
from holdem.services.tournaments import sit_and_gos_keep_open, tournament_cancel


@admin.register(SitGoTemplate)
class SitGoTemplateAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "active",
        "seats",
        "structure",
        chip_column("buy_in", "buy-in"),
        chip_column("fee", "fee"),
        chip_column("starting_stack", "starting stack"),
        "level_seconds",
    )
    list_filter = ("active", "structure")
    readonly_fields = ("preset", "created_at")

    class Media:
        css = CHIP_COLUMNS_CSS

    def has_delete_permission(self, request, obj=None):
        return False  # its tournaments keep a reference; make it inactive instead

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # A change applies from the next Sit & Go opened; an active template gets one now.
        sit_and_gos_keep_open()


class EntryInline(admin.TabularInline):
    model = TournamentEntry
    fields = readonly_fields = (
        "user",
        "number",
        "registered_at",
        "seat",
        "place",
        "prize",
        "finished_at",
    )
    extra = 0
    can_delete = False
    ordering = ("place", "registered_at")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


def cancel_selected(model_admin, request, queryset) -> None:
    """Cancel each selected tournament through the service (refunds), saying how each went."""
    for tournament in queryset:
        try:
            tournament_cancel(tournament_id=tournament.pk, actor=request.user)
        except DomainError as error:
            model_admin.message_user(request, f"{tournament}: {error.message}", messages.ERROR)
        else:
            model_admin.message_user(request, f"{tournament}: cancelled, entries refunded")


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """The Sit & Gos (the scheduled tournaments have their own page, below)."""

    list_display = (
        "id",
        "name",
        "status",
        "entrants_or_registered",
        chip_column("buy_in", "buy-in"),
        chip_column("prize_pool", "prize pool"),
        chip_column("prizes_paid", "prizes paid"),
        "level_shown",
        "started_at",
        "finished_at",
    )
    list_filter = ("status", "template")
    fields = readonly_fields = (
        "name",
        "template",
        "status",
        "seats",
        "structure",
        "buy_in",
        "fee",
        "starting_stack",
        "level_seconds",
        "blind_schedule",
        "payouts",
        "table",
        "level_shown",
        "level_ends_at",
        "entrants",
        "prize_pool",
        "prizes_paid",
        "created_at",
        "started_at",
        "finished_at",
    )
    inlines = (EntryInline,)
    actions = ("cancel_tournaments",)

    class Media:
        css = CHIP_COLUMNS_CSS

    def has_view_permission(self, request, obj=None):
        return request.user.is_staff

    def get_queryset(self, request):
        return super().get_queryset(request).filter(kind=TournamentKind.SIT_AND_GO)

    @admin.display(description="players")
    def entrants_or_registered(self, tournament):
        return tournament.entrants or tournament.entries.count()

    @admin.display(description="level")
    def level_shown(self, tournament):
        return tournament.level + 1

    @admin.action(description="Cancel the selected Sit & Gos (before the start; refunds)")
    def cancel_tournaments(self, request, queryset):
        cancel_selected(self, request, queryset)


class ScheduleForm(forms.ModelForm):
    """A scheduled tournament's figures (RULES.md 9), checked as tournament_schedule checks them:
    a refusal shows on the form and nothing is saved. An empty blind schedule plays the default
    levels (RULES.md 8)."""

    class Meta:
        model = ScheduledTournament
        fields = SCHEDULE_FIELDS

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "blind_schedule" in self.fields:
            self.fields["blind_schedule"].required = False
            self.fields["blind_schedule"].help_text = (
                "[[small blind, big blind, ante], ...], one a level; empty: the default levels "
                "(RULES.md 8). After the last level each level doubles the one before."
            )

    def clean_blind_schedule(self):
        return self.cleaned_data.get("blind_schedule") or []

    def clean_starts_at(self):
        starts_at = self.cleaned_data.get("starts_at")
        if starts_at is None:
            raise forms.ValidationError("A scheduled tournament needs a start time.")
        if "starts_at" in self.changed_data and starts_at <= timezone.now():
            raise forms.ValidationError("The start time must be still to come.")
        return starts_at

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        if self.instance.pk is not None:
            # Read again: it may have started since the page was drawn.
            status = Tournament.objects.values_list("status", flat=True).get(pk=self.instance.pk)
            frozen = frozen_changes(status, [n for n in self.changed_data if n in SCHEDULE_FIELDS])
            if frozen:
                raise forms.ValidationError(
                    "This tournament has started: %(fields)s can no longer change.",
                    params={"fields": ", ".join(n.replace("_", " ") for n in frozen)},
                )
        candidate = copy.copy(self.instance)
        candidate.kind = TournamentKind.SCHEDULED
        candidate.payouts = candidate.payouts or []
        for name in SCHEDULE_FIELDS:
            if name in cleaned:
                setattr(candidate, name, cleaned[name])
        refusal = schedule_refusal(candidate)
        if refusal is not None:
            fields = {k: v for k, v in (refusal.fields or {}).items() if k in self.fields}
            for name, problem in fields.items():
                self.add_error(name, problem)
            if not fields:
                self.add_error(None, refusal.message[:1].upper() + refusal.message[1:] + ".")
        return cleaned


# A scheduled tournament's state, shown read-only on its page.
STATE_FIELDS = (
    "status",
    "level_shown",
    "level_ends_at",
    "hand_for_hand",
    "entrants",
    "prize_pool",
    "prizes_paid",
    "prize_table",
    "tables_shown",
    "created_at",
    "started_at",
    "finished_at",
)


@admin.register(ScheduledTournament)
class ScheduledTournamentAdmin(admin.ModelAdmin):
    """RULES.md 9: staff schedule a multi-table tournament (tournament_schedule checks it and
    tells the lobby), change it before the start (only the name and the entry limits once it
    runs: holdem/services/scheduling.py), and cancel it before the start (refunds). Never
    deleted: its entries and ledger lines name it."""

    form = ScheduleForm
    list_display = (
        "id",
        "name",
        "status",
        "starts_at",
        "entrants_or_registered",
        chip_column("buy_in", "buy-in"),
        chip_column("fee", "fee"),
        chip_column("prize_pool", "prize pool"),
        "level_shown",
        "repeat_daily",
    )
    list_filter = ("status", "repeat_daily")
    search_fields = ("name",)
    ordering = ("-starts_at", "-id")
    inlines = (EntryInline,)
    actions = ("cancel_tournaments",)
    fieldsets_add = (
        ("Tournament", {"fields": ("name", "starts_at", "repeat_daily")}),
        (
            "Entry",
            {"fields": ("buy_in", "fee", "max_entrants", "late_registration_levels", "re_entries")},
        ),
        (
            "Tables",
            {
                "fields": (
                    "seats",
                    "starting_stack",
                    "structure",
                    "turn_seconds",
                    "time_bank_seconds",
                    "auto_muck",
                )
            },
        ),
        ("Levels", {"fields": ("level_seconds", "blind_schedule")}),
    )

    class Media:
        css = CHIP_COLUMNS_CSS

    def has_delete_permission(self, request, obj=None):
        return False  # cancel it instead (refunds); its entries and ledger lines name it

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return self.fieldsets_add
        return (*self.fieldsets_add, ("State", {"fields": STATE_FIELDS}))

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ()
        # RULES.md 9: what its tables, pool and clock were made with cannot change once it runs.
        allowed = changeable_fields(obj.status)
        return (*(n for n in SCHEDULE_FIELDS if n not in allowed), *STATE_FIELDS)

    def save_model(self, request, obj, form, change):
        if change:
            changes = {n: form.cleaned_data[n] for n in form.changed_data if n in SCHEDULE_FIELDS}
            try:
                scheduled_tournament_update(tournament_id=obj.pk, changes=changes)
            except DomainError as error:  # it started between the form's check and now
                self.message_user(request, f"Not saved: {error.message}", messages.ERROR)
            return
        created = tournament_schedule(**{n: form.cleaned_data[n] for n in SCHEDULE_FIELDS})
        # The admin goes on with its own object (the history entry, the redirect): it becomes
        # the row the service saved.
        for field in Tournament._meta.concrete_fields:
            setattr(obj, field.attname, getattr(created, field.attname))
        obj._state.adding = False
        obj._state.db = created._state.db

    @admin.display(description="players")
    def entrants_or_registered(self, tournament):
        return tournament.entrants or tournament.entries.count()

    @admin.display(description="level")
    def level_shown(self, tournament):
        return tournament.level + 1 if tournament.status == TournamentStatus.RUNNING else "-"

    @admin.display(description="prizes (1st, 2nd, ...)")
    def prize_table(self, tournament):
        return " · ".join(chips(prize) for prize in mtt_prize_table(tournament))

    @admin.display(description="tables")
    def tables_shown(self, tournament):
        tables = (
            Table.objects.filter(tournament=tournament)
            .exclude(status=TableStatus.CLOSED)
            .annotate(players=Count("seat_set"))
            .order_by("id")
        )
        if not tables:
            return "-"
        return format_html_join(
            mark_safe("<br>"),
            '<a href="{}">{}</a> · {} players · <a href="{}">watch</a>',
            (
                (
                    reverse("admin:holdem_table_change", args=[t.pk]),
                    t.name,
                    t.players,
                    reverse("table", args=[t.pk]),
                )
                for t in tables
            ),
        )

    @admin.action(description="Cancel the selected tournaments (before the start; refunds)")
    def cancel_tournaments(self, request, queryset):
        cancel_selected(self, request, queryset)

"""Sit & Go templates (RULES.md 8: what an admin sets, the three presets shipped) and the
tournaments: registering, running and finished, with their entrants, places and prizes. No card
is shown here. Staff may cancel a tournament before it starts; its players get their money back."""

from django.contrib import admin, messages

from casino.accounts.formatting import CHIP_COLUMNS_CSS, chip_column
from casino.errors import DomainError
from casino.readonly_admin import ReadOnlyAdmin
from holdem.models import SitGoTemplate, Tournament, TournamentEntry
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
    fields = readonly_fields = ("user", "registered_at", "seat", "place", "prize", "finished_at")
    extra = 0
    can_delete = False
    ordering = ("place", "registered_at")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
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

    @admin.display(description="players")
    def entrants_or_registered(self, tournament):
        return tournament.entrants or tournament.entries.count()

    @admin.display(description="level")
    def level_shown(self, tournament):
        return tournament.level + 1

    @admin.action(description="Cancel the selected Sit & Gos (before the start; refunds)")
    def cancel_tournaments(self, request, queryset):
        for tournament in queryset:
            try:
                tournament_cancel(tournament_id=tournament.pk, actor=request.user)
            except DomainError as error:
                self.message_user(request, f"{tournament}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: cancelled, entries refunded")

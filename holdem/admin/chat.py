"""Chat in the admin: every line as it was written (read-only), and site-wide mutes with a reason
and the staff member who set them."""

from django.contrib import admin

from casino.readonly_admin import ReadOnlyAdmin
from holdem.models import ChatBan, ChatLine


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

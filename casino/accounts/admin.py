"""Admin: users, wallets (balance read-only, adjusted only through the service) and the ledger."""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from casino.accounts import services
from casino.accounts.formatting import (
    CHIP_COLUMNS_CSS,
    NO_VALUE,
    chip_column,
    chips,
    signed_chips,
)
from casino.accounts.forms import ChipAdjustmentForm
from casino.accounts.models import LedgerEntry, LedgerKind, User, Wallet
from casino.accounts.second_factor import ADJUST_PERMISSION
from casino.errors import DomainError
from casino.readonly_admin import ReadOnlyAdmin

# The service's refusals that are about one field of the adjustment form; the others (a reused
# idempotency key, a duplicate) are about the whole movement.
ADJUSTMENT_ERROR_FIELDS = {
    "bad_amount": "amount",
    "insufficient_chips": "amount",
    "reason_required": "reason",
}


def adjustment_errors(error: DomainError, form) -> list[tuple[str | None, str]]:
    """Each reason for a refused adjustment with the field it is about (None: the whole form)."""
    if error.fields:
        return [(k if k in form.fields else None, v) for k, v in error.fields.items()]
    return [(ADJUSTMENT_ERROR_FIELDS.get(error.code), error.message)]


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "is_staff", "chip_balance", "date_joined")
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Table preferences", {"fields": ("card_back", "auto_muck")}),
    )

    class Media:
        css = CHIP_COLUMNS_CSS

    @admin.display(description="chips", ordering="wallet__balance")
    def chip_balance(self, user):
        wallet = getattr(user, "wallet", None)
        return chips(wallet.balance) if wallet else NO_VALUE

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            services.account_open(user=obj)


BALANCE = chip_column("balance")


@admin.register(Wallet)
class WalletAdmin(admin.ModelAdmin):
    list_display = ("user", BALANCE, "updated_at", "adjust_link")
    search_fields = ("user__username", "user__email")
    fields = readonly_fields = ("user", BALANCE, "updated_at", "adjust_link")
    ordering = ("user__username",)

    class Media:
        css = CHIP_COLUMNS_CSS

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # Every field is read-only (a balance changes through Adjust chips alone): no Save.
        return super().change_view(
            request,
            object_id,
            form_url,
            {**(extra_context or {}), "show_save": False, "show_save_and_continue": False},
        )

    def save_model(self, request, obj, form, change):
        """A change form posted anyway has nothing to save (style.md 9: the ledger or nothing)."""

    @admin.display(description="adjust")
    def adjust_link(self, wallet):
        return format_html(
            '<a href="{}">Adjust chips</a>',
            reverse("admin:accounts_wallet_adjust", args=[wallet.pk]),
        )

    def get_urls(self):
        return [
            path(
                "<int:wallet_id>/adjust/",
                self.admin_site.admin_view(self.adjust_view),
                name="accounts_wallet_adjust",
            ),
            *super().get_urls(),
        ]

    def adjust_view(self, request, wallet_id):
        if not request.user.has_perm(ADJUST_PERMISSION):
            raise PermissionDenied("You may not adjust chip balances.")
        wallet = get_object_or_404(Wallet.objects.select_related("user"), pk=wallet_id)
        form = ChipAdjustmentForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                entry = services.wallet_adjust(
                    user=wallet.user,
                    amount=form.cleaned_data["amount"],
                    kind=LedgerKind.ADMIN_ADJUSTMENT,
                    reason=form.cleaned_data["reason"],
                    actor=request.user,
                )
            except DomainError as error:
                for field, message in adjustment_errors(error, form):
                    form.add_error(field, message)
            else:
                messages.success(
                    request,
                    f"{wallet.user.username}: {signed_chips(entry.amount)} chips, "
                    f"balance now {chips(entry.balance_after)}.",
                )
                return redirect("admin:accounts_wallet_change", wallet.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "wallet": wallet,
            "form": form,
            "title": f"Adjust chips for {wallet.user.username}",
        }
        return TemplateResponse(request, "admin/accounts/wallet_adjust.html", context)


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "user",
        chip_column("amount", signed=True),
        chip_column("balance_after", "balance after"),
        "kind",
        "reason",
        "actor",
        "table_id",
    )
    fields = readonly_fields = (*list_display, "idempotency_key", "chain_prev_id", "chain_hash")
    list_filter = ("kind",)
    search_fields = ("user__username", "reason", "idempotency_key")
    date_hierarchy = "created_at"

    class Media:
        css = CHIP_COLUMNS_CSS

"""Admin: users (with freezing and the leaderboard), wallets (balance read-only, adjusted or moved
between accounts only through the services), the ledger, and breaks and self-exclusions (read-only)."""

import uuid

from django import forms
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
from casino.accounts.forms import ChipAdjustmentForm, ChipMoveForm, FreezeForm
from casino.accounts.models import Exclusion, LedgerEntry, LedgerKind, User, Wallet
from casino.accounts.second_factor import ADJUST_PERMISSION
from casino.accounts.selectors import wallet_balances
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


def _posted(request):
    """The data of a POST, even an empty one (a confirmation has no fields to fill)."""
    return request.POST if request.method == "POST" else None


# The chip movement's refusals about one field of its form (the others are about the whole).
MOVE_ERROR_FIELDS = {
    "bad_amount": "amount",
    "insufficient_chips": "amount",
    "reason_required": "reason",
    "same_account": "to_username",
}


class ClosedFilter(admin.SimpleListFilter):
    """RULES.md 10: accounts their players closed, or those still open."""

    title = "closed by the player"
    parameter_name = "closed"

    def lookups(self, request, model_admin):
        return (("yes", "Closed"), ("no", "Open"))

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(closed_at__isnull=self.value() == "no")
        return queryset


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = (
        "username",
        "email",
        "is_staff",
        "chip_balance",
        "frozen",
        "closed",
        "date_joined",
    )
    list_filter = (*BaseUserAdmin.list_filter, "off_leaderboard", ClosedFilter)
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        ("Table preferences", {"fields": ("card_back", "auto_muck")}),
        (
            "Integrity",
            {"fields": ("frozen_at", "frozen_by", "frozen_reason", "off_leaderboard", "integrity")},
        ),
        # RULES.md 10: closed by the player themselves (holdem/services/account_close.py).
        ("Closed by the player", {"fields": ("closed_at",)}),
    )
    readonly_fields = (
        "frozen_at",
        "frozen_by",
        "frozen_reason",
        "off_leaderboard",
        "integrity",
        "closed_at",
    )

    class Media:
        css = CHIP_COLUMNS_CSS

    @admin.display(description="chips", ordering="wallet__balance")
    def chip_balance(self, user):
        wallet = getattr(user, "wallet", None)
        return chips(wallet.balance) if wallet else NO_VALUE

    @admin.display(description="frozen", boolean=True, ordering="frozen_at")
    def frozen(self, user):
        return user.frozen_at is not None

    @admin.display(description="closed", boolean=True, ordering="closed_at")
    def closed(self, user):
        return user.closed_at is not None

    @admin.display(description="integrity actions")
    def integrity(self, user):
        if user.pk is None:
            return NO_VALUE
        freeze = "unfreeze" if user.frozen_at else "freeze"
        board = "leaderboard_restore" if user.off_leaderboard else "leaderboard_drop"
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            reverse(f"admin:accounts_user_{freeze}", args=[user.pk]),
            "Unfreeze" if user.frozen_at else "Freeze",
            reverse(f"admin:accounts_user_{board}", args=[user.pk]),
            "Put back on the leaderboard" if user.off_leaderboard else "Drop from the leaderboard",
        )

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            services.account_open(user=obj)

    def get_urls(self):
        views = (
            ("freeze", self.freeze_view),
            ("unfreeze", self.unfreeze_view),
            ("leaderboard_drop", self.leaderboard_drop_view),
            ("leaderboard_restore", self.leaderboard_restore_view),
        )
        return [
            *(
                path(
                    f"<int:user_id>/{name.replace('_', '-')}/",
                    self.admin_site.admin_view(view),
                    name=f"accounts_user_{name}",
                )
                for name, view in views
            ),
            *super().get_urls(),
        ]

    def _integrity_page(self, request, user_id, *, title, explanation, form, act):
        """A page that changes one account through `act(subject, form)` once the form is valid."""
        if not self.has_change_permission(request):
            raise PermissionDenied("You may not change accounts.")
        subject = get_object_or_404(User, pk=user_id)
        if request.method == "POST" and form.is_valid():
            try:
                done = act(subject, form)
            except DomainError as error:
                field = (
                    "reason"
                    if error.code == "reason_required" and "reason" in form.fields
                    else None
                )
                form.add_error(field, error.message)
            else:
                # The user's admin history says who did it, when, and (for a freeze) why.
                self.log_change(request, subject, done)
                messages.success(request, done)
                return redirect("admin:accounts_user_change", subject.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "subject": subject,
            "form": form,
            "title": f"{title}: {subject.username}",
            "action_title": title,
            "explanation": explanation,
        }
        return TemplateResponse(request, "admin/accounts/user_integrity.html", context)

    def freeze_view(self, request, user_id):
        def act(subject, form):
            services.account_freeze(
                user=subject, reason=form.cleaned_data["reason"], actor=request.user
            )
            return (
                f"{subject.username} is frozen ({form.cleaned_data['reason']}); their open pages "
                "were closed."
            )

        return self._integrity_page(
            request,
            user_id,
            title="Freeze",
            explanation="A frozen account keeps its chips but may not sit, register in a Sit & Go "
            "or claim free chips, and its open tables and lobby close now. The player reads that "
            "the account is frozen, not your reason.",
            form=FreezeForm(_posted(request)),
            act=act,
        )

    def unfreeze_view(self, request, user_id):
        def act(subject, form):
            services.account_unfreeze(user=subject, actor=request.user)
            return f"{subject.username} is no longer frozen."

        return self._integrity_page(
            request,
            user_id,
            title="Unfreeze",
            explanation="The account may play again.",
            form=forms.Form(_posted(request)),
            act=act,
        )

    def _leaderboard_view(self, request, user_id, *, shown: bool):
        def act(subject, form):
            services.account_leaderboard_set(user=subject, shown=shown, actor=request.user)
            where = "back on" if shown else "off"
            return f"{subject.username} is {where} the leaderboard."

        return self._integrity_page(
            request,
            user_id,
            title="Put back on the leaderboard" if shown else "Drop from the leaderboard",
            explanation="The leaderboard leaves out accounts dropped from it; their hands and "
            "chips are untouched.",
            form=forms.Form(_posted(request)),
            act=act,
        )

    def leaderboard_drop_view(self, request, user_id):
        return self._leaderboard_view(request, user_id, shown=False)

    def leaderboard_restore_view(self, request, user_id):
        return self._leaderboard_view(request, user_id, shown=True)


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
            path(
                "move/",
                self.admin_site.admin_view(self.move_view),
                name="accounts_wallet_move",
            ),
            *super().get_urls(),
        ]

    def move_view(self, request):
        """Move chips from one wallet to another (`?from=<username>&to=<username>` fills the
        form in, as the integrity queue's links do). The same permission, and so the same
        second factor, as an adjustment."""
        if not request.user.has_perm(ADJUST_PERMISSION):
            raise PermissionDenied("You may not move chips.")
        initial = {
            "from_username": request.GET.get("from", ""),
            "to_username": request.GET.get("to", ""),
            "key": uuid.uuid4().hex,
        }
        form = ChipMoveForm(request.POST or None, initial=initial)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                taken, given = services.chips_move(
                    from_user=data["from_username"],
                    to_user=data["to_username"],
                    amount=data["amount"],
                    reason=data["reason"],
                    actor=request.user,
                    idempotency_key=data["key"],
                )
            except DomainError as error:
                form.add_error(MOVE_ERROR_FIELDS.get(error.code), error.message)
            else:
                messages.success(
                    request,
                    f"Moved {chips(given.amount)} chips from {taken.user.username} "
                    f"(now {chips(taken.balance_after)}) to {given.user.username} "
                    f"(now {chips(given.balance_after)}).",
                )
                return redirect("admin:accounts_ledgerentry_changelist")
        names = [initial["from_username"], initial["to_username"]]
        found = dict(User.objects.filter(username__in=names).values_list("username", "pk"))
        balances = wallet_balances(user_ids=found.values())
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "form": form,
            "balances": [(n, balances.get(found[n], 0)) for n in names if n in found],
            "title": "Move chips between accounts",
        }
        return TemplateResponse(request, "admin/accounts/wallet_move.html", context)

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


@admin.register(Exclusion)
class ExclusionAdmin(ReadOnlyAdmin):
    """Breaks and self-exclusions (docs/rules.md 11): seen by staff, changed by nobody: the
    player chose them, and they end when they end."""

    list_display = ("user", "kind", "created_at", "until")
    fields = readonly_fields = list_display
    list_filter = ("kind",)
    search_fields = ("user__username",)
    date_hierarchy = "created_at"

"""Players, their chip wallets and the append-only ledger of every chip movement.

Balances change only through casino.accounts.services.wallet_adjust (style.md 9).
"""

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.crypto import salted_hmac


class CardBack(models.TextChoices):
    """RULES.md 6 [000]: the card-back designs a player may choose (the client draws each)."""

    CLASSIC = "classic", "Classic blue"
    RED = "red", "Red"
    GREEN = "green", "Green"
    BLACK = "black", "Black"


class User(AbstractUser):
    """A player or an admin. Custom from the first migration so it can grow without pain."""

    card_back = models.CharField(max_length=16, choices=CardBack.choices, default=CardBack.CLASSIC)
    # "Muck losing hands": None until the player chooses; the room's own default applies then.
    auto_muck = models.BooleanField(null=True, blank=True, default=None)
    # Integrity (docs/integrity.md): staff freeze an account suspected of chip dumping or
    # collusion. A frozen account keeps its chips but may not sit, register or claim free chips,
    # and its sockets are closed. The reason is for staff; the player reads only that it is frozen.
    frozen_at = models.DateTimeField(null=True, blank=True, editable=False)
    frozen_reason = models.CharField(max_length=255, blank=True, editable=False)
    frozen_by = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, editable=False, related_name="+"
    )
    off_leaderboard = models.BooleanField(
        default=False, editable=False, help_text="Left out of the leaderboard by staff."
    )
    # RULES.md 10: the player closed the account themselves (holdem/services/account_close.py):
    # renamed "closed-<id>", signed out for good; its chips and history stay.
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)

    # Raised to sign the account out everywhere (a break or a self-exclusion, docs/rules.md 11):
    # every session's stored hash was made with the old value and no longer matches.
    session_epoch = models.PositiveIntegerField(default=0, editable=False)

    @property
    def is_frozen(self) -> bool:
        return self.frozen_at is not None

    def get_session_auth_hash(self) -> str:
        return self._with_epoch(super().get_session_auth_hash())

    def get_session_auth_fallback_hash(self):
        for fallback in super().get_session_auth_fallback_hash():
            yield self._with_epoch(fallback)

    def _with_epoch(self, password_hash: str) -> str:
        # Epoch 0 keeps Django's own hash: the sessions signed in before the epoch existed stay.
        if not self.session_epoch:
            return password_hash
        return salted_hmac(
            "casino.accounts.User.session_epoch",
            f"{password_hash}:{self.session_epoch}",
            algorithm="sha256",
        ).hexdigest()


class Wallet(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="wallet"
    )
    balance = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)
    # The head of the wallet's ledger chain (casino/accounts/ledger_chain.py), written with the
    # balance: how many lines, the last one's id and hash. A line removed at the end shows here.
    ledger_chain_length = models.PositiveBigIntegerField(default=0, editable=False)
    ledger_chain_last_id = models.BigIntegerField(null=True, blank=True, editable=False)
    ledger_chain_hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0), name="wallet_balance_not_negative"
            )
        ]
        permissions = [("adjust_chips", "Can adjust chip balances")]

    def __str__(self) -> str:
        return f"{self.user.username}: {self.balance:,} chips"


class LedgerKind(models.TextChoices):
    GRANT = "grant", "Starting grant"
    ADMIN_ADJUSTMENT = "admin_adjustment", "Admin adjustment"
    BUY_IN = "buy_in", "Buy-in (wallet to table)"
    CASH_OUT = "cash_out", "Cash-out (table to wallet)"
    REFILL = "refill", "Free chips"
    TOURNAMENT_BUY_IN = "tournament_buy_in", "Tournament buy-in (to the prize pool)"
    TOURNAMENT_FEE = "tournament_fee", "Tournament fee (to the house)"
    TOURNAMENT_REFUND = "tournament_refund", "Tournament refund"
    TOURNAMENT_PRIZE = "tournament_prize", "Tournament prize"
    STAFF_MOVE = "staff_move", "Chips moved back by staff"


# Kinds that bring chips into (or take them out of) the whole system, as opposed to moving them
# between a wallet and a table. audit_chips balances the books against these. A refill (free
# chips for a broke player, holdem/services/refill.py) brings new chips in, like a grant.
SYSTEM_KINDS = (LedgerKind.GRANT, LedgerKind.ADMIN_ADJUSTMENT, LedgerKind.REFILL)


class LedgerEntryQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("ledger entries are append-only")

    def delete(self):
        raise TypeError("ledger entries are append-only")


class LedgerEntry(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ledger_entries"
    )
    amount = models.BigIntegerField(help_text="Signed: positive credits the wallet.")
    balance_after = models.BigIntegerField()
    kind = models.CharField(max_length=24, choices=LedgerKind.choices)
    reason = models.CharField(max_length=255)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    table_id = models.BigIntegerField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=100, unique=True)
    # Set before the INSERT (not auto_now_add, which sets it during): the chain hash covers it.
    created_at = models.DateTimeField(default=timezone.now, editable=False, db_index=True)
    # The wallet's ledger chain (casino/accounts/ledger_chain.py): the line before this one in
    # the same wallet (None for the first), and the hash of this line's content with that link.
    chain_prev_id = models.BigIntegerField(
        "previous line in the wallet", null=True, blank=True, editable=False
    )
    chain_hash = models.CharField(
        "chain hash",
        max_length=64,
        default="",
        editable=False,
        help_text="SHA-256 of this line and the previous one's hash (manage.py verify_chain).",
    )

    objects = LedgerEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "ledger entries"
        constraints = [
            models.CheckConstraint(condition=~models.Q(amount=0), name="ledger_amount_not_zero"),
            models.CheckConstraint(
                condition=models.Q(balance_after__gte=0), name="ledger_balance_after_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.amount:+,} ({self.kind})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Append-only: an entry, once written, is history.
        if self.pk is not None:
            raise TypeError("ledger entries are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("ledger entries are append-only")


class TraceKind(models.TextChoices):
    SIGNUP_ADDRESS = "signup_address", "Sign-up address"
    DEVICE = "device", "Device cookie"


class AccountTrace(models.Model):
    """Where an account came from, kept as a keyed hash only: the address it signed up from, or a
    browser's device cookie seen at sign-up or sign-in. Two accounts with the same hash are
    linked (docs/integrity.md); nobody can read the address or the cookie back."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="traces"
    )
    kind = models.CharField(max_length=16, choices=TraceKind.choices)
    value_hash = models.CharField(max_length=64)
    first_seen = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "value_hash"], name="one_trace_per_value"
            )
        ]
        indexes = [models.Index(fields=["kind", "value_hash"], name="trace_by_value")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.value_hash[:8]}"


class Deck(models.TextChoices):
    """The card faces' colours (the table client draws each)."""

    FOUR_COLOUR = (
        "four_colour",
        "Four colours (spades black, hearts red, diamonds blue, clubs green)",
    )
    TWO_COLOUR = "two_colour", "Two colours (spades and clubs black, hearts and diamonds red)"


class Preferences(models.Model):
    """A player's table settings, kept on the server so they follow the player to every device.
    One row per player, made on first change (casino.accounts.preferences reads the defaults
    for a player who has none). Each field's meaning and checks live with the service that
    writes it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="preferences",
    )
    # The raise screen's size buttons; empty means the defaults (fractions of the pot after the
    # flop, multiples of the bet before it).
    bet_sizes_postflop = models.JSONField(default=list, blank=True)
    bet_sizes_preflop = models.JSONField(default=list, blank=True)
    fold_confirm = models.BooleanField(default=True)
    deck = models.CharField(max_length=16, choices=Deck.choices, default=Deck.FOUR_COLOUR)
    # Auto top-up between hands: when the stack falls below `top_up_below_percent` of the target,
    # top up to the target: the room's maximum buy-in, or `top_up_to_bb` big blinds when set.
    auto_top_up = models.BooleanField(default=False)
    top_up_below_percent = models.PositiveSmallIntegerField(default=50)
    top_up_to_bb = models.PositiveIntegerField(null=True, blank=True)
    # The session reminder's period in minutes (15, 30 or 60); None is off.
    session_reminder_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # The names the player gave the eight colour tags, by colour key; missing keys use defaults.
    tag_names = models.JSONField(default=dict, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"


class SignIn(models.Model):
    """A successful sign-in, for the player's monthly statement (RULES.md 10). django-axes keeps
    failures only (AXES_DISABLE_ACCESS_LOG), so these are recorded at the user_logged_in signal."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sign_ins"
    )
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        indexes = [models.Index(fields=["user", "at"], name="sign_in_user_time")]

    def __str__(self) -> str:
        return f"user {self.user_id} signed in at {self.at:%Y-%m-%d %H:%M}"


class LimitPeriod(models.TextChoices):
    """docs/rules.md 11: the calendar periods a buy-in limit counts over, in the site's time zone."""

    DAY = "day", "Daily"
    WEEK = "week", "Weekly"
    MONTH = "month", "Monthly"


class BuyInLimit(models.Model):
    """A player's limit on net buy-ins over one period (docs/rules.md 11). A lower limit applies
    at once; a higher one (or none) waits 24 hours as the pending raise. Written only by
    casino.accounts.limits."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="buy_in_limits"
    )
    period = models.CharField(max_length=8, choices=LimitPeriod.choices)
    # None: no limit (a removal, once its 24 hours have passed).
    amount = models.PositiveBigIntegerField(null=True, blank=True)
    # The raise waiting for its 24 hours: the amount it brings (None: no limit) from `pending_from`.
    pending_amount = models.PositiveBigIntegerField(null=True, blank=True)
    pending_from = models.DateTimeField(null=True, blank=True)
    changed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "period"], name="one_limit_per_period")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.period}: {self.amount}"


class ExclusionKind(models.TextChoices):
    BREAK = "break", "Break"
    SELF_EXCLUSION = "self_exclusion", "Self-exclusion"


class ExclusionQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("a break or a self-exclusion cannot be changed")

    def delete(self):
        raise TypeError("a break or a self-exclusion cannot be changed")


class Exclusion(models.Model):
    """A break or a self-exclusion the player chose (docs/rules.md 11): until `until` the account
    may not sign in, sit, register or claim free chips. Never shortened nor lifted: the rows
    are append-only, the admin shows them read-only."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="exclusions"
    )
    kind = models.CharField(max_length=16, choices=ExclusionKind.choices)
    created_at = models.DateTimeField()
    until = models.DateTimeField(db_index=True)

    objects = ExclusionQuerySet.as_manager()

    class Meta:
        ordering = ["-until"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(until__gt=models.F("created_at")), name="exclusion_ends_later"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} until {self.until:%Y-%m-%d %H:%M}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise TypeError("a break or a self-exclusion cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("a break or a self-exclusion cannot be changed")

"""Rooms (tables), seats, live connections, hands in progress and the hand history, as stored rows.

The table row is the unit of locking: every change at a table locks it first (style.md 8).
"""

from django.conf import settings
from django.db import models

# The option choices are the declarations' (holdem/table_options.py); importers find them here too.
from holdem.table_options import Blinds as Blinds
from holdem.table_options import ChatRule as ChatRule
from holdem.table_options import Disconnect as Disconnect
from holdem.table_options import Entry as Entry
from holdem.table_options import MinRaise as MinRaise
from holdem.table_options import Pace as Pace
from holdem.table_options import RoomOptions
from holdem.table_options import Structure as Structure


class TableStatus(models.TextChoices):
    OPEN = "open", "Open"
    CLOSING = "closing", "Closing after this hand"
    CLOSED = "closed", "Closed"


class TableKind(models.TextChoices):
    """The kind of game a table plays (holdem/services/game_kinds.py answers for each)."""

    CASH = "cash", "Cash game"
    SIT_AND_GO = "sit_and_go", "Sit & Go"
    TOURNAMENT = "tournament", "Multi-table tournament"


class Table(RoomOptions):
    """A room: its options (RULES.md 1, declared in holdem/table_options.py), its clock columns
    and the hand in progress."""

    name = models.CharField(max_length=80, unique=True)
    preset = models.CharField(max_length=32, blank=True)
    kind = models.CharField(
        max_length=12, choices=TableKind.choices, default=TableKind.CASH, editable=False
    )
    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.OPEN)

    # Clock columns (style.md 7: timers are data). Not indexed: every action moves the turn
    # clock, and an index on it made each action's UPDATE write a new entry in every index of
    # the table; the sweep reads a few hundred rows a second without one (docs/decisions.md).
    next_hand_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    turn_token = models.CharField(max_length=32, blank=True)
    # When the running turn's clock ran out and its player's time bank started (None: it has not).
    turn_bank_from = models.DateTimeField(null=True, blank=True)
    # RULES.md 4: players offered Show or Muck after the last hand muck when this passes.
    show_or_muck_deadline = models.DateTimeField(null=True, blank=True)

    # The hand in progress, as engine JSON with its format version inside.
    hand_state = models.TextField(blank=True)
    hand = models.ForeignKey(
        "HandRecord", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    last_hand = models.ForeignKey(
        "HandRecord", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    hand_actions = models.PositiveIntegerField(
        default=0, help_text="Actions logged in the hand in progress: the next one's index."
    )
    # docs/fairness.md: the deck commitment of the hand in progress, else of the last hand.
    commitment = models.CharField(max_length=64, blank=True, editable=False)
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # RULES.md 8, the dead button: last hand's blinds (the small blind None when it was dead).
    small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    big_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    hands_played = models.PositiveIntegerField(default=0)
    seq = models.PositiveBigIntegerField(
        default=0, help_text="Sequence number of the table's events."
    )
    spectators = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="Signed-in users watching without a seat, counted again when one comes or goes.",
    )
    sent_view = models.TextField(
        blank=True,
        default="",
        editable=False,
        help_text="JSON: the public view the last event brought its clients, and a digest of each "
        "seated player's private part, so the next event sends only what changed.",
    )
    rake_collected = models.PositiveBigIntegerField(default=0)
    # Seats held for the first in the waiting list: {"seat number": offer's end, epoch ms}, kept
    # by holdem/services/waiting.py under the table lock so the table's view shows them held
    # without a query per event.
    held_seats = models.JSONField(default=dict, blank=True, editable=False)
    # The head of the table's chain of finished hands (holdem/hand_chain.py), written
    # with the end of each hand: how many, the last one's id and hash.
    hand_chain_length = models.PositiveIntegerField(default=0, editable=False)
    hand_chain_last_id = models.BigIntegerField(null=True, blank=True, editable=False)
    hand_chain_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    # A tournament's table (RULES.md 8 and 9): a Sit & Go has one, a multi-table tournament many.
    tournament = models.ForeignKey(
        "Tournament",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tables",
        editable=False,
    )
    # RULES.md 9, hand for hand: the tournament's round of hands this table dealt last.
    tournament_round = models.PositiveIntegerField(default=0, editable=False)
    # RULES.md 9: why a tournament's table waits between hands ("balancing", "hand_for_hand"),
    # told to the table once when it starts waiting; empty when it does not.
    held_for = models.CharField(max_length=16, blank=True, default="", editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats__gte=2, seats__lte=10), name="table_seats_2_to_10"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def in_hand(self) -> bool:
        return bool(self.hand_state)


class Seat(models.Model):
    """A player sitting at a table with chips in front of them. One seat per user in the site."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField()
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seat"
    )
    stack = models.PositiveBigIntegerField(
        default=0, help_text="Chips behind, outside the hand in progress."
    )
    in_hand = models.BooleanField(default=False, help_text="Dealt into the hand in progress.")
    sitting_out = models.BooleanField(default=False)
    waiting_for_big_blind = models.BooleanField(default=False)
    wants_to_post = models.BooleanField(default=False)
    missed_small_blind = models.BooleanField(default=False)
    missed_big_blind = models.BooleanField(default=False)
    disconnected = models.BooleanField(default=False)
    # RULES.md 5: when the player's last socket closed; a disconnection once the grace has passed.
    connection_lost_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # RULES.md 2: turns timed out in a row while connected; two sit the player out.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    sat_out_idle = models.BooleanField(
        default=False, help_text="Sat out by the table after two timeouts."
    )
    # RULES.md 2, the player's own boxes: sit out from the next hand on, or before the hand in
    # which they would post the big blind. Both stay ticked while they sit out; sitting in clears them.
    sit_out_next_hand = models.BooleanField(default=False)
    sit_out_next_big_blind = models.BooleanField(default=False)
    # None: the player never chose, the room's auto_muck applies (RULES.md 1).
    auto_muck = models.BooleanField(null=True, blank=True)
    # A pre-action box (holdem/preactions.py): applied when the turn comes, in its betting round.
    pre_action = models.CharField(max_length=12, blank=True, default="")
    pre_action_amount = models.PositiveBigIntegerField(null=True, blank=True)
    pre_action_round = models.CharField(max_length=24, blank=True, default="")
    # The time bank left, and the hands dealt since it was last refilled.
    time_bank_ms = models.PositiveIntegerField(default=30_000)
    bank_hands = models.PositiveSmallIntegerField(default=0)
    sat_at = models.DateTimeField(auto_now_add=True)
    # docs/rules.md 11: the player took a break during a hand they were dealt in; the seat is
    # given up, its chips to the wallet, when the hand ends.
    leave_after_hand = models.BooleanField(default=False)

    class Meta:
        ordering = ["table_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_player_per_seat")
        ]

    def __str__(self) -> str:
        return f"table {self.table_id} seat {self.number + 1}: user {self.user_id}"


# A web process that has not beaten for this long is dead, and its sockets with it.
PROCESS_EXPIRY_SECONDS = 10


class WebProcess(models.Model):
    """A running web server process that holds websockets. It beats every second; one silent for
    PROCESS_EXPIRY_SECONDS is dead, and so are its connections (docs/decisions.md, presence)."""

    key = models.CharField(max_length=40, unique=True)
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.key


class Connection(models.Model):
    """One open websocket of a user: to a table, or to the lobby (`table` empty)."""

    process = models.ForeignKey(WebProcess, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="connection_set"
    )
    channel_name = models.CharField(max_length=160, unique=True)
    opened_at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["table", "user"]),
            models.Index(fields=["user", "opened_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.channel_name} (user {self.user_id}, table {self.table_id or 'lobby'})"


# The ClockBeat name of the deadline sweeper (holdem.services.clock).
DEADLINES_CLOCK = "deadlines"


class ClockBeat(models.Model):
    """When a clock last ran (`deadlines`: the deadline sweeper). /healthz reads it, and a gap
    longer than a few seconds means the site was down (RULES.md 5: no turn is cut short by it)."""

    name = models.CharField(max_length=32, unique=True)
    ran_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} ran at {self.ran_at:%Y-%m-%d %H:%M:%S}"


class Departure(models.Model):
    """RULES.md 2: what a player owed and held when they last left a table. Coming back within
    30 minutes, they still owe the missed blinds and buy in for at least the chips they left with."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    left_at = models.DateTimeField()
    stack = models.PositiveBigIntegerField()
    missed_small_blind = models.BooleanField(default=False)
    missed_big_blind = models.BooleanField(default=False)
    # The time bank the seat had left (RULES.md 2: kept for 30 minutes, as the debts are).
    time_bank_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "table"], name="one_departure_per_user_table")
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} left table {self.table_id} with {self.stack:,}"


class ProtectionUse(models.Model):
    """RULES.md 5: an all-in protection granted on a disconnect (at most 2 per 24 hours)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    hand = models.ForeignKey("HandRecord", on_delete=models.CASCADE, related_name="+")
    used_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"user {self.user_id} protected in hand {self.hand_id}"


class HandRecord(models.Model):
    """One hand: what it started from (options, seats, deck) and, once over, how it ended."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField(help_text="The table's hand counter.")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(
        null=True, blank=True, db_index=True
    )  # the leaderboard's windows
    button_seat = models.PositiveSmallIntegerField()
    options = models.JSONField(help_text="Hand options as given to the engine.")
    players = models.JSONField(help_text="[{seat, user_id, username, stack_before, stack_after}]")
    deck = models.JSONField(
        help_text="The shuffled deck: server side only, never sent to a client."
    )
    salts = models.JSONField(
        default=list,
        help_text="One salt per deck position (docs/fairness.md): server side only; a position's "
        "salt is revealed with its card once the card is public.",
    )
    commitment = models.CharField(
        max_length=64,
        blank=True,
        help_text="The deck commitment published before the deal (docs/fairness.md).",
    )
    board = models.JSONField(default=list)
    pots = models.JSONField(default=list)
    shown = models.JSONField(default=dict, help_text="seat -> hole cards revealed")
    rake = models.PositiveBigIntegerField(default=0)
    result = models.JSONField(
        default=dict, help_text="The engine's result: pots, winners, net, shown, best hands."
    )
    final_state = models.TextField(
        blank=True, help_text="Engine JSON at the end (for showing an uncontested hand)."
    )
    blinds = models.JSONField(
        null=True,
        blank=True,
        help_text="[small blind seat or null, big blind seat] where the hand placed them by the "
        "dead button (RULES.md 8); null: the blinds follow the button (RULES.md 3).",
    )
    tournament = models.JSONField(
        null=True,
        blank=True,
        help_text="A tournament hand's header: {id, buy_in, fee, level} (level counts from 1).",
    )
    # The table's chain of finished hands (holdem/hand_chain.py): the hand that ended
    # before this one at its table (None for the first), and the hash of this hand's content, its
    # actions included, with that link. Empty until the hand ends.
    chain_prev_id = models.BigIntegerField(null=True, blank=True, editable=False)
    chain_hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_per_table")
        ]

    def __str__(self) -> str:
        # The hand's number on the site is its id (the table, the history, the PokerStars text).
        return f"Hand #{self.pk} at {self.table}"


class HandParticipant(models.Model):
    """Who played a hand, for finding a player's own history."""

    hand = models.ForeignKey(HandRecord, on_delete=models.CASCADE, related_name="participants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hands_played"
    )
    seat = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "user"], name="one_participation_per_hand")
        ]

    def __str__(self) -> str:
        return f"user {self.user_id} in seat {self.seat} of hand {self.hand_id}"


class HandActionQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise TypeError("the action log is append-only")

    def delete(self):
        raise TypeError("the action log is append-only")


class HandAction(models.Model):
    """The append-only action log of a hand: who did what, when, answering which client id."""

    hand = models.ForeignKey(HandRecord, on_delete=models.PROTECT, related_name="actions")
    index = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=16)
    amount = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The total for the round, for bet/raise."
    )
    street = models.CharField(max_length=10)
    source = models.CharField(
        max_length=12, default="player", help_text="player / timeout / disconnect"
    )
    client_action_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = HandActionQuerySet.as_manager()

    class Meta:
        ordering = ["hand_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "index"], name="action_index_per_hand"),
            models.UniqueConstraint(
                fields=["hand", "user", "client_action_id"],
                condition=~models.Q(client_action_id=""),
                name="client_action_id_once_per_hand",
            ),
        ]

    def __str__(self) -> str:
        amount = f" {self.amount:,}" if self.amount is not None else ""
        return f"Hand #{self.hand_id}, action {self.index + 1}: seat {self.seat + 1} {self.action}{amount}"

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise TypeError("the action log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise TypeError("the action log is append-only")


CHAT_MAX_CHARS = 200


class ChatLine(models.Model):
    """One line of a table's chat: who, where, when, what. Every line is kept (the admin reads
    them); the table shows the last ones."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat_lines")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.CharField(max_length=CHAT_MAX_CHARS)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "created_at"], name="chat_line_user_time")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}: {self.text[:40]}"


class ChatMute(models.Model):
    """A player does not want to read another player's lines (remembered, on every table)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="mute_once")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


# A player's private note on another player: its length, and the eight colour tags (their keys;
# each player names them, casino.accounts.models.Preferences.tag_names).
NOTE_MAX_CHARS = 1000
TAG_COLOURS = ("red", "orange", "yellow", "green", "teal", "blue", "purple", "grey")


class PlayerNote(models.Model):
    """What one player wrote about another, and the colour tag they gave them: seen by its author
    alone (at the table, in the lobby's player lists and on their notes page)."""

    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    text = models.TextField(max_length=NOTE_MAX_CHARS, blank=True)
    colour = models.CharField(max_length=8, blank=True, choices=[(key, key) for key in TAG_COLOURS])
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["author", "subject"], name="one_note_per_player"),
            models.CheckConstraint(
                condition=~models.Q(author=models.F("subject")), name="no_note_on_oneself"
            ),
        ]
        # The arrival of a player at a table looks up the notes written on them.
        indexes = [models.Index(fields=["subject", "author"])]

    def __str__(self) -> str:
        return f"{self.author_id} on {self.subject_id}: {self.colour or '-'} {self.text[:40]}"


class ChatBan(models.Model):
    """Staff muted this user site-wide, with a reason (recorded with who did it and when)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_ban"
    )
    reason = models.CharField(max_length=200)
    banned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} muted: {self.reason}"


class WaitingEntry(models.Model):
    """A player in line for a seat at a room with no seat to take. The first in line
    is offered a seat as it frees: `offered_seat` is held for them alone until `offer_expires_at`
    (the deadline sweep passes a lapsed offer to the next in line). Line order is the id."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    joined_at = models.DateTimeField()
    offered_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    offer_expires_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["table_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "user"], name="wait_once_per_table"),
            models.UniqueConstraint(fields=["table", "offered_seat"], name="one_offer_per_seat"),
        ]

    def __str__(self) -> str:
        offer = f", offered seat {self.offered_seat}" if self.offered_seat is not None else ""
        return f"user {self.user_id} waits at table {self.table_id}{offer}"


class SitGoTemplate(models.Model):
    """What an admin sets for a Sit & Go (RULES.md 8). One tournament of each active template
    is always taking entries; a tournament copies the figures it plays by when it opens."""

    name = models.CharField(max_length=80, unique=True)
    preset = models.CharField(max_length=32, blank=True)
    active = models.BooleanField(
        default=True, help_text="Keep one of these open for registration in the lobby."
    )
    seats = models.PositiveSmallIntegerField(default=6)
    structure = models.CharField(
        max_length=12, choices=Structure.choices, default=Structure.NO_LIMIT
    )
    buy_in = models.PositiveBigIntegerField(help_text="Wallet chips into the prize pool.")
    fee = models.PositiveBigIntegerField(default=0, help_text="Wallet chips to the house.")
    starting_stack = models.PositiveBigIntegerField(default=1500)
    level_seconds = models.PositiveIntegerField(
        default=600, help_text="Length of a level in seconds (RULES.md 8 level_minutes x 60)."
    )
    blind_schedule = models.JSONField(
        default=list,
        blank=True,
        help_text="[[small blind, big blind, ante], ...]; empty: the RULES.md 8 levels.",
    )
    payouts = models.JSONField(
        default=list,
        blank=True,
        help_text="[[up to N entrants, [percent of 1st, 2nd, ...]], ...]; empty: RULES.md 8.",
    )
    turn_seconds = models.PositiveSmallIntegerField(default=60)
    time_bank_seconds = models.PositiveSmallIntegerField(default=30)
    auto_muck = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = "Sit & Go template"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seats__gte=2, seats__lte=10), name="sitgo_seats_2_to_10"
            ),
            models.CheckConstraint(condition=models.Q(buy_in__gte=1), name="sitgo_buy_in_1"),
            models.CheckConstraint(
                condition=models.Q(starting_stack__gte=2), name="sitgo_starting_stack_2"
            ),
            models.CheckConstraint(
                condition=models.Q(level_seconds__gte=1), name="sitgo_level_seconds_1"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TournamentStatus(models.TextChoices):
    REGISTERING = "registering", "Registering"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


class TournamentKind(models.TextChoices):
    SIT_AND_GO = "sit_and_go", "Sit & Go"
    SCHEDULED = "scheduled", "Scheduled multi-table"


class Tournament(models.Model):
    """One tournament: its registrations, then its tables, level clock, places and prizes.

    A Sit & Go (RULES.md 8) copies its template's figures when it opens and starts when its one
    table fills; a scheduled one (RULES.md 9) is set by staff, starts at `starts_at` and plays
    over as many tables of `seats` as its entrants need."""

    kind = models.CharField(
        max_length=12, choices=TournamentKind.choices, default=TournamentKind.SIT_AND_GO
    )
    template = models.ForeignKey(
        SitGoTemplate, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    name = models.CharField(max_length=80)
    status = models.CharField(
        max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTERING
    )
    seats = models.PositiveSmallIntegerField(help_text="Seats at each table.")
    # RULES.md 9: a scheduled tournament's options.
    starts_at = models.DateTimeField(null=True, blank=True, db_index=True)
    max_entrants = models.PositiveIntegerField(
        null=True, blank=True, help_text="Entries taken at most, re-entries included; empty: any."
    )
    late_registration_levels = models.PositiveSmallIntegerField(
        default=4, help_text="Entries are taken until the end of this level (0: none after start)."
    )
    re_entries = models.PositiveSmallIntegerField(
        default=0, help_text="Times a knocked-out player may enter again while entries are open."
    )
    repeat_daily = models.BooleanField(
        default=False, help_text="When it starts, the same tournament is scheduled a day later."
    )
    # RULES.md 9, hand for hand: on, and the round of hands the tables play now.
    hand_for_hand = models.BooleanField(default=False)
    hand_round = models.PositiveIntegerField(default=0)
    structure = models.CharField(max_length=12, choices=Structure.choices)
    buy_in = models.PositiveBigIntegerField()
    fee = models.PositiveBigIntegerField()
    starting_stack = models.PositiveBigIntegerField()
    level_seconds = models.PositiveIntegerField()
    blind_schedule = models.JSONField(help_text="[[small blind, big blind, ante], ...]")
    payouts = models.JSONField(help_text="[[up to N entrants, [percents]], ...]")
    turn_seconds = models.PositiveSmallIntegerField()
    time_bank_seconds = models.PositiveSmallIntegerField()
    auto_muck = models.BooleanField()
    # The level clock (style.md 7: timers are data): the index of the level in force and when
    # it ends; the next hand dealt after that is at the next level.
    level = models.PositiveSmallIntegerField(default=0)
    level_ends_at = models.DateTimeField(null=True, blank=True, db_index=True)
    entrants = models.PositiveSmallIntegerField(default=0)
    prize_pool = models.PositiveBigIntegerField(default=0)
    prizes_paid = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(prizes_paid__lte=models.F("prize_pool")),
                name="tournament_prizes_within_pool",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def table(self) -> Table | None:
        """A Sit & Go's one table (None before it starts); the first of a multi-table one's.
        Read from `prefetch_related("tables")` when the caller made one (a list of them)."""
        return min(self.tables.all(), key=lambda table: table.pk, default=None)

    @property
    def table_id(self) -> int | None:
        table = self.table
        return table.pk if table else None


class ScheduledTournamentManager(models.Manager["ScheduledTournament"]):
    def get_queryset(self) -> models.QuerySet["ScheduledTournament"]:
        return super().get_queryset().filter(kind=TournamentKind.SCHEDULED)


class ScheduledTournament(Tournament):
    """The scheduled multi-table tournaments (RULES.md 9) alone: the same rows, for the admin
    page where staff schedule them (holdem/admin/tournaments.py)."""

    objects = ScheduledTournamentManager()

    class Meta:
        proxy = True
        verbose_name = "scheduled tournament"


class TournamentEntry(models.Model):
    """A player's registration in a tournament and, once they are out, their place and prize.
    A re-entry (RULES.md 9) is a new entry of the same player with the next `number`."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveSmallIntegerField(default=1, help_text="1: the first entry.")
    registered_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = models.PositiveBigIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    out_in_hand = models.ForeignKey(
        HandRecord, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # RULES.md 9: a player out whose place waits for the round of hands (hand for hand) or the
    # end of late registration: the chips they began the hand with, and the round.
    out_chips = models.PositiveBigIntegerField(null=True, blank=True)
    out_round = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["place", "registered_at", "id"]
        verbose_name_plural = "tournament entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "number"], name="one_entry_per_number"
            ),
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=models.Q(finished_at__isnull=True),
                name="one_live_entry_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class PairScore(models.Model):
    """How much the hands of the last weeks look as if `source` sent chips to `target` on purpose
    (chip dumping, a farm, soft play), signal by signal: rewritten by integrity_pairs_score every
    run, read by the staff's queue. The formula and what each number means: docs/integrity.md."""

    source = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The player whose chips (or folds) went the other's way.",
    )
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The player who received them.",
    )
    total = models.FloatField(db_index=True, help_text="0 to 100: the weighted sum of the signals.")
    flow = models.FloatField(
        help_text="0 to 1: the source's losses won by the target, beyond its usual take."
    )
    folds = models.FloatField(
        help_text="0 to 1: folds to the target's bets beyond folds to others'."
    )
    free_chips = models.FloatField(
        help_text="0 to 1: share of free chips claimed, then lost to the target."
    )
    linked = models.FloatField(help_text="1: the two share a sign-up address or a browser.")
    timing = models.FloatField(help_text="0 to 1: actions timed too regularly to be human.")
    net_chips = models.BigIntegerField(help_text="Chips that went source -> target, minus back.")
    hands_together = models.PositiveIntegerField()
    hand_ids = models.JSONField(
        default=list, help_text="The hands behind the score, newest first (at most 100)."
    )
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["-total", "pk"]
        verbose_name = "pair score"
        verbose_name_plural = "integrity queue (pair scores)"
        constraints = [
            models.UniqueConstraint(fields=["source", "target"], name="one_score_per_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.source_id} -> {self.target_id}: {self.total:.0f}"

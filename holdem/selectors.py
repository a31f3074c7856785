"""Reads about tables: what a viewer may see (public part, private part), the lobby, the books.

Hole cards come only from the engine's own view for that seat (style.md 5): the public part is
the engine's spectator view, the private part is built for one user and sent to them alone.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Sum
from django.utils import timezone

from casino.accounts.models import CardBack
from casino.accounts.selectors import wallet_balance
from holdem import engine, preactions
from holdem.history.replay import hand_log
from holdem.history.story import hand_story
from holdem.models import (
    DEADLINES_CLOCK,
    PROCESS_EXPIRY_SECONDS,
    ChatLine,
    ChatMute,
    ClockBeat,
    Connection,
    Departure,
    HandRecord,
    Seat,
    Table,
    TableStatus,
)
from holdem.table_options import rules_dialog, rules_of


def epoch_ms(moment) -> int | None:
    return int(moment.timestamp() * 1000) if moment else None


def current_state(table):
    return engine.state_from_json(table.hand_state) if table.in_hand else None


def final_state(record: HandRecord):
    """The engine state a hand ended in, read once per record object however many private parts
    are built from it (a hand's end builds one per seat, for each of its events)."""
    kept = getattr(record, "_final_read", None)
    if kept is None or kept[0] is not record.final_state:
        kept = (record.final_state, engine.state_from_json(record.final_state))
        record._final_read = kept
    return kept[1]


def stakes_label(table) -> str:
    if table.structure == "fixed_limit":
        return f"{table.small_bet:,}/{table.big_bet:,}"
    if table.blinds == "dynamic":
        return f"dynamic {table.dynamic_blind_percent}%"
    return f"{table.small_blind:,}/{table.big_blind:,}"


def public_table(table, state=None, seat_rows=None) -> dict:
    """Everything anyone watching the table may see. No hole card unless shown at showdown.
    The server's clock (`now`) is the frame's: see table_view_for."""
    if state is None:
        state = current_state(table)
    elif state.is_over:
        state = None  # the hand is finished: the result travels in `last_hand`
    hand_view = engine.view(state, None) if state is not None else None
    in_hand = {s["seat"]: s for s in hand_view["seats"]} if hand_view else {}
    if seat_rows is None:
        seat_rows = table.seat_set.select_related("user")
    seats = {s.number: s for s in seat_rows}
    # Between hands the last result stays on the felt, unless everybody has gone: an empty table
    # shows no old result.
    last = _last_result(table, seats) if hand_view is None and seats else None
    if last is not None and not _result_on_felt(table):
        last = None
    rows = []
    for number in range(table.seats):
        seat = seats.get(number)
        if seat is None:
            row = {"number": number, "occupied": False}
            held_until = (table.held_seats or {}).get(str(number))
            if held_until is not None:
                row["reserved_until"] = held_until  # held for the first in the waiting list
            rows.append(row)
            continue
        row = {
            "number": number,
            "occupied": True,
            "user_id": seat.user_id,
            "username": seat.user.username,
            "stack": seat.stack,
            "in_hand": seat.in_hand,
            "sitting_out": seat.sitting_out,
            "waiting_for_big_blind": seat.waiting_for_big_blind,
            "disconnected": seat.disconnected,
            "time_bank": seat.time_bank_ms // 1000,
        }
        if number in in_hand:
            played = in_hand[number]
            row.update(
                {
                    k: played[k]
                    for k in (
                        "stack",
                        "bet",
                        "committed",
                        "folded",
                        "all_in",
                        "protected",
                        "has_cards",
                    )
                    if k in played
                }
            )
            if played.get("hole"):
                row["hole"] = played["hole"]
        # A seat shows the last result only to the player who played it, not to a newcomer.
        played_here = last and last["players"].get(str(number), {}).get("user_id") == seat.user_id
        row["state"] = _seat_state(row, hand_view, last if played_here else None)
        if played_here and str(number) in last["net"]:
            row["net"] = last["net"][str(number)]
            row["winner"] = number in last["winners"]
        rows.append(row)
    options = rules_of(table)
    return {
        "id": table.pk,
        "name": table.name,
        "status": table.status,
        "options": options,
        "rules": rules_dialog(options),  # the rules dialog's lines, worded by the server
        "stakes": stakes_label(table),
        "button": table.button_seat,
        "seats": rows,
        "hand": hand_view,
        "hand_number": table.hands_played,
        # The hand's number on the history pages and in its PokerStars text: the hand being
        # played, else the last one (null before the first).
        "hand_id": table.hand_id or table.last_hand_id,
        "turn": {
            "seat": hand_view["to_act"],
            "deadline": epoch_ms(table.turn_deadline),
            "seconds": table.turn_seconds,
            "token": table.turn_token,
            # The turn clock ran out and the player's time bank runs until `deadline`.
            "bank_from": epoch_ms(table.turn_bank_from),
        }
        if hand_view and hand_view.get("to_act") is not None
        else None,
        "countdown": {"starts_at": epoch_ms(table.next_hand_at)} if table.next_hand_at else None,
        "last_hand": last,
        "spectators": table.spectators,
    }


# How long a finished hand's result stays on a table that has nothing next (as long as the time
# to choose Show or Muck, holdem/services/hands.py SHOW_OR_MUCK_SECONDS).
RESULT_ON_FELT_SECONDS = 8


def _result_on_felt(table) -> bool:
    """The last hand's result stays on the felt until the table moves on: while players choose
    Show or Muck, while the countdown to the next game runs, and for a few seconds after the hand
    ended. A table left waiting for players does not keep an old winner beside that."""
    if table.show_or_muck_deadline is not None or table.next_hand_at is not None:
        return True
    ended = table.last_hand.ended_at if table.last_hand is not None else None
    return ended is not None and timezone.now() - ended < timedelta(seconds=RESULT_ON_FELT_SECONDS)


def _seat_state(row, hand_view, last) -> str:
    """RULES.md 6 seat states that do not depend on who looks (the client adds open/closed empty
    and 'your seat' variants)."""
    if row["disconnected"]:
        return "disconnected"
    if hand_view is None:
        if last and row["number"] in last["winners"]:
            return "winner"
        if row["sitting_out"]:
            return "sitting_out"
        return "post_game" if last else "waiting"
    if not row["in_hand"]:
        return "sitting_out" if row["sitting_out"] else "waiting_next_game"
    if row.get("folded"):
        return "folded"
    if row.get("all_in") or row.get("protected"):
        return "all_in"
    if hand_view.get("to_act") == row["number"]:
        return "betting"
    return "waiting"


def _last_result(table, seats) -> dict | None:
    """The last hand's result as the felt shows it between hands. A seat's cards, hand and net
    stay only while the player who played it sits there: once they have gone (left, busted), the
    seat, empty or taken by someone else, shows nothing of them. Who played where (`players`)
    names the pots' winners."""
    record = table.last_hand
    if record is None or not record.result:
        return None
    result = record.result
    players = {
        str(p["seat"]): {"user_id": p["user_id"], "username": p["username"]} for p in record.players
    }
    still_here = {
        str(number)
        for number, seat in seats.items()
        if players.get(str(number), {}).get("user_id") == seat.user_id
    }

    def of_those_here(by_seat: dict) -> dict:
        return {key: value for key, value in by_seat.items() if key in still_here}

    return {
        "hand_id": record.pk,
        "number": record.number,
        "board": record.board,
        "pots": result["pots"],
        "winners": sorted({w for pot in result["pots"] for w in pot["winners"]}),
        "players": players,
        "net": of_those_here(result["net"]),
        "shown": of_those_here(result["shown"]),
        "best": of_those_here(result["best"]),
        "uncontested": result["uncontested"],
        "rake": result["rake"],
        # RULES.md 4: seats still choosing Show or Muck, and until when.
        "undecided": result.get("undecided", []),
        "decide_by": epoch_ms(table.show_or_muck_deadline),
    }


def private_part(
    table, user, state=None, seat=None, balance=None, seated_here=False, with_balance=True
) -> dict:
    """What only this user may see: their seat, their hole cards and legal actions, their wallet
    (left out with `with_balance=False`: it did not change, and the client keeps the last one)."""
    elsewhere = None
    if seat is None and not seated_here:
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            other = Seat.objects.filter(user=user).select_related("table").first()
            elsewhere = {"table_id": other.table_id, "name": other.table.name} if other else None
    # With `seated_here` and no seat, the user has just lost their seat here: a user has one seat
    # in the site (Seat.user is one-to-one), so they sit nowhere else.
    if state is None:
        state = current_state(table)
    mine = {
        "user_id": user.pk,
        "username": user.username,
        "balance": (wallet_balance(user=user) if balance is None else balance)
        if with_balance
        else None,
        "seat": seat.number if seat else None,
        "seated_elsewhere": elsewhere,
        "auto_muck": muck_choice(seat, table)
        if seat
        else (user.auto_muck if user.auto_muck is not None else table.auto_muck),
        "card_back": user.card_back,
        "card_backs": CardBack.choices,
        "hole": None,
        "legal": None,
        "can_show": False,
        "can_muck": False,
        "pre_action": None,
    }
    if not with_balance:
        del mine["balance"]
    if seat is None:
        if elsewhere is None:
            limits = buy_in_limits(table, user)
            mine["buy_in"] = {"min": limits.minimum, "max": limits.maximum, "reason": limits.reason}
        return mine
    mine.update(
        {
            "in_hand": seat.in_hand,
            "sitting_out": seat.sitting_out,
            "sit_out_reason": "idle" if seat.sitting_out and seat.sat_out_idle else None,
            "waiting_for_big_blind": seat.waiting_for_big_blind,
            "wants_to_post": seat.wants_to_post,
            "missed_blinds": seat.missed_small_blind or seat.missed_big_blind,
        }
    )
    limit = top_up_limit(table, seat)
    mine["top_up"] = None if limit == 0 else {"max": limit}
    if state is not None and seat.in_hand and not state.is_over:
        own = engine.own_view(state, seat.number)
        mine["hole"] = own["hole"] if own else None
        mine["legal"] = own["legal"] if own else None
        if preactions.stands(state, seat, table.hands_played) and state.to_act != seat.number:
            mine["pre_action"] = {"value": seat.pre_action, "amount": seat.pre_action_amount}
    elif not table.in_hand and table.last_hand is not None:
        record = table.last_hand
        played = next((p for p in record.players if p["user_id"] == user.pk), None)
        if played is not None and record.final_state:
            final = final_state(record)
            own = engine.own_view(final, played["seat"])
            mine["hole"] = own["hole"] if own else None
            result = final.result
            deciding = played["seat"] in result.undecided
            mine["can_show"] = deciding or bool(
                result.uncontested
                and result.payouts.get(played["seat"], 0) > 0
                and played["seat"] not in result.shown
            )
            mine["can_muck"] = deciding
    return mine


def table_is_open(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id).exclude(status=TableStatus.CLOSED).exists()


def table_snapshot(table_id: int, user) -> dict:
    return table_view_for(Table.objects.get(pk=table_id), user)


def previous_hand_at(table_id: int, user) -> dict | None:
    return previous_hand_for(Table.objects.get(pk=table_id), user)


def table_view_for(table, user) -> dict:
    """The snapshot a client gets on connect or when it asks: public part + its own part."""
    public = public_table(table)
    public["now"] = epoch_ms(timezone.now())
    snapshot = {
        "type": "snapshot",
        "seq": table.seq,
        "table": public,
        "you": private_part(table, user),
    }
    if table.in_hand and table.hand is not None:
        snapshot["log"] = hand_log(table.hand)  # the table log survives a reload
    snapshot["chat"] = chat_recent(table)
    snapshot["chat_muted"] = chat_muted_ids(user)
    return snapshot


CHAT_IN_SNAPSHOT = 50


def chat_line_view(line, username: str) -> dict:
    return {
        "id": line.pk,
        "user_id": line.user_id,
        "username": username,
        "text": line.text,
        "at": epoch_ms(line.created_at),
    }


def chat_recent(table) -> list[dict]:
    """The table's last chat lines, oldest first."""
    lines = list(ChatLine.objects.filter(table=table).select_related("user")[:CHAT_IN_SNAPSHOT])
    return [chat_line_view(line, line.user.username) for line in reversed(lines)]


def chat_muted_ids(user) -> list[int]:
    """The players whose lines this user chose not to read."""
    return sorted(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def spectator_count(table) -> int:
    seated = Seat.objects.filter(table=table).values("user_id")
    alive = timezone.now() - timedelta(seconds=PROCESS_EXPIRY_SECONDS)
    watching = Connection.objects.filter(table=table, process__seen_at__gte=alive).exclude(
        user_id__in=seated
    )
    return watching.values("user_id").distinct().count()


def room_summary(table, seats=None) -> dict:
    """The room as the lobby lists it. `seats`: the table's seats with their users, if the caller
    has them."""
    if seats is None:
        seats = list(table.seat_set.select_related("user"))
    return {
        "id": table.pk,
        "name": table.name,
        "status": table.status,
        "structure": table.structure,
        "stakes": stakes_label(table),
        "seats": table.seats,
        "taken": len(seats),
        # RULES.md 2: a game starts only with two players who can be dealt in; someone sitting
        # out (or with no chips) is seated but will not play.
        "ready": sum(1 for s in seats if not s.sitting_out and s.stack > 0),
        "players": [s.user.username for s in seats],
        "spectators": table.spectators,
        "playing": table.in_hand,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
    }


def rooms_for_lobby() -> list[dict]:
    return [
        room_summary(t) for t in Table.objects.exclude(status=TableStatus.CLOSED).order_by("id")
    ]


def table_chip_totals() -> tuple[int, int]:
    """(chips at tables: seat stacks plus everything in hands in progress, rake collected)."""
    in_seats = Seat.objects.aggregate(s=Sum("stack"))["s"] or 0
    in_hands = 0
    for text in Table.objects.exclude(hand_state="").values_list("hand_state", flat=True):
        in_hands += engine.state_from_json(text).total_chips
    rake = Table.objects.aggregate(s=Sum("rake_collected"))["s"] or 0
    return in_seats + in_hands, rake


def previous_hand_for(table, user) -> dict | None:
    """RULES.md 4 'show previous hand': board, actions, every hand shown, and the player's own cards."""
    record = table.last_hand
    if record is None:
        return None
    return hand_summary_for(record, user)


def showdown_hands(final) -> tuple[dict, list]:
    """RULES.md 4 [002]: "you are entitled to see any cards that were active at the showdown even
    if they were not shown": once a hand is over, the hole cards of every player still in at its
    showdown, mucked or not (seat -> cards), and which were mucked. Folded hands stay hidden, an
    uncontested hand had no showdown, and a player still choosing Show or Muck keeps the choice."""
    result = final.result
    if result is None or result.uncontested:
        return {}, []
    hands = {
        str(p.seat): list(p.hole)
        for p in final.players
        if not p.folded and p.seat not in result.undecided
    }
    return hands, sorted(result.mucked)


def hand_summary_for(record: HandRecord, user) -> dict:
    played = next((p for p in record.players if p["user_id"] == getattr(user, "pk", None)), None)
    own = None
    showdown, mucked = {}, []
    if record.final_state and record.ended_at is not None:
        final = engine.state_from_json(record.final_state)
        showdown, mucked = showdown_hands(final)
        if played is not None:
            me = next(
                (
                    s
                    for s in engine.view(final, played["seat"])["seats"]
                    if s["seat"] == played["seat"]
                ),
                None,
            )
            own = me.get("hole") if me else None
    return {
        "hand_id": record.pk,
        "table": record.table.name,
        "number": record.number,
        "started_at": record.started_at.isoformat(),
        "button": record.button_seat,
        "players": [
            {k: p.get(k) for k in ("seat", "username", "stack_before", "stack_after", "net")}
            for p in record.players
        ],
        "board": record.board,
        # The complete record (every blind and amount, the pots and who collected them) and the
        # action log: holdem/history/story.py hand_story.
        **hand_story(record),
        "shown": record.shown,
        "showdown": showdown,
        "mucked": mucked,
        "best": (record.result or {}).get("best", {}),
        "your_cards": own,
        "your_seat": played["seat"] if played else None,
        "rake": record.rake,
    }


def hand_before(record: HandRecord, user) -> int | None:
    """On a history page, "previous hand" is the hand played at that table before this one (the
    latest earlier one the viewer may open: theirs, or any for staff)."""
    earlier = HandRecord.objects.filter(
        table_id=record.table_id, number__lt=record.number, ended_at__isnull=False
    )
    if not getattr(user, "is_staff", False):
        earlier = earlier.filter(participants__user=user)
    return earlier.order_by("-number").values_list("pk", flat=True).first()


def hands_of(user, limit=50):
    """The player's recent finished hands, newest first."""
    return (
        HandRecord.objects.filter(ended_at__isnull=False, participants__user=user)
        .select_related("table")
        .order_by("-id")[:limit]
    )


# RULES.md 2: how long a table remembers what a player who left it owed and held.
DEPARTURE_MEMORY = timedelta(minutes=30)


@dataclass(frozen=True)
class BuyInLimits:
    minimum: int
    maximum: int | None
    reason: str | None  # why the minimum is above the room's
    departure: Departure | None


def buy_in_limits(table, user, now=None) -> BuyInLimits:
    """RULES.md 2: the room's buy-in range, except that a player who left this table with chips
    less than 30 minutes ago comes back with at least that many (no hit-and-run "ratholing")."""
    now = now or timezone.now()
    minimum, maximum = max(table.min_buy_in, 1), table.max_buy_in
    departure = Departure.objects.filter(
        user=user, table=table, left_at__gte=now - DEPARTURE_MEMORY
    ).first()
    reason = None
    if departure is not None and departure.stack > minimum:
        minimum = departure.stack
        if maximum is not None and maximum < minimum:
            maximum = minimum
        ago = max(1, int((now - departure.left_at).total_seconds() // 60))
        reason = (
            f"you left this table {ago} minute{'s' if ago != 1 else ''} ago with {departure.stack:,} chips: "
            f"come back with at least that many (for 30 minutes after leaving)"
        )
    return BuyInLimits(minimum, maximum, reason, departure)


def top_up_limit(table, seat) -> int | None:
    """How many chips the room lets this seat add now (its wallet aside): 0 while dealt in or at
    the room's maximum; None when the room has no maximum (up to the wallet)."""
    if seat.in_hand:
        return 0
    if table.max_buy_in is None:
        return None
    return max(0, table.max_buy_in - seat.stack)


def top_up_room(table, seat, balance: int) -> int:
    """How many chips this seat may add now with a wallet of `balance`."""
    limit = top_up_limit(table, seat)
    return balance if limit is None else min(limit, balance)


def game_running(table, seats) -> bool:
    """RULES.md 2: a hand is being played, or the countdown after a hand runs with two or more of
    the players who played it still seated. Otherwise everybody is dealt in at the next game."""
    if table.in_hand:
        return True
    if table.next_hand_at is None or table.last_hand is None:
        return False
    played = {p["user_id"] for p in table.last_hand.players}
    return sum(1 for s in seats if s.user_id in played) >= 2


def muck_choice(seat, table) -> bool:
    """RULES.md 1: the player's own "muck losing hands" box, or the room's default if never set."""
    return table.auto_muck if seat.auto_muck is None else seat.auto_muck


def clock_last_run():
    """When the deadline sweeper last ran (None before its first run)."""
    return ClockBeat.objects.filter(name=DEADLINES_CLOCK).values_list("ran_at", flat=True).first()

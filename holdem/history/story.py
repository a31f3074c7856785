"""The complete public record of a finished hand in the site's words (`hand_story`): a line for
every blind, action, deal, show and pot, and the words and numbers the pages write."""

from django.utils import timezone

from holdem.history.stored_hand import Moment, hand_moments
from holdem.models import HandRecord

STRUCTURE_NAMES = {"no_limit": "No Limit", "pot_limit": "Pot Limit", "fixed_limit": "Limit"}
STREET_TITLES = {
    "preflop": "Pre-flop",
    "flop": "Flop",
    "turn": "Turn",
    "river": "River",
    "showdown": "Showdown",
}
BLIND_WORDS = {
    "small": "the small blind",
    "big": "the big blind",
    "post": "a big blind",
    "dead": "a dead small blind",
    "ante": "the ante",  # RULES.md 8
}
SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
SOURCE_WORDS = {"timeout": "time ran out", "disconnect": "disconnected", "pre_action": "pre-action"}


def cards_text(codes) -> str:
    """Cards in short symbols, as the table's log writes them: "A♠ 10♦". A line that names
    cards also lists their codes (`cards`), where tests/realtime/test_privacy.py looks."""
    return " ".join(
        f"{'10' if code[0] == 'T' else code[0]}{SUIT_SYMBOLS[code[1]]}" for code in codes
    )


def _pot_label(index: int, count: int) -> str:
    if count == 1:
        return "the pot"
    return "the main pot" if index == 0 else f"side pot {index}"


def _pot_title(index: int, count: int) -> str:
    if count == 1:
        return "Pot"
    return "Main pot" if index == 0 else f"Side pot {index}"


def _category(category: str) -> str:
    return "a pair" if category == "one pair" else category


def _action_text(event, before, name: str, source: str) -> str:
    """A player's action with what it put in; an all-in reads as the call, bet or raise it was."""
    why = f" ({SOURCE_WORDS[source]})" if source in SOURCE_WORDS else ""
    if event.action == "fold":
        return f"{name} folds{why}"
    if event.action == "check":
        return f"{name} checks{why}"
    all_in = ", all in" if event.all_in else ""
    facing = before.current_bet
    if event.action == "call" or (event.action == "all_in" and event.to <= facing):
        return f"{name} calls {event.amount:,}{all_in}{why}"
    if facing == 0:
        return f"{name} bets {event.amount:,}{all_in}{why}"
    put_in = f" (puts in {event.amount:,})" if event.amount != event.to else ""
    return f"{name} raises to {event.to:,}{all_in}{put_in}{why}"


def line_street(moment: Moment) -> str:
    """Where a moment belongs in the record: the betting round it happened in, the street it
    dealt, the showdown, or the result (the pots paid)."""
    kind = moment.event.kind
    if kind == "street":
        return str(moment.event.street)
    if kind in ("showdown", "mucked"):
        return "showdown"
    if kind in ("pot_awarded", "hand_ended"):
        return "result"
    return str(moment.before.street)


def moment_line(moment: Moment, names: dict, pot_count: int) -> dict | None:
    """The record's line for one moment, or None for the events the record says otherwise."""
    event = moment.event
    kind = event.kind
    seat = getattr(event, "seat", None)
    name = names.get(seat, f"Seat {seat + 1}") if seat is not None else ""
    line = {"kind": kind, "street": line_street(moment), "seat": seat}
    if kind == "blind_posted":
        all_in = ", all in" if event.all_in else ""
        line.update(
            text=f"{name} posts {BLIND_WORDS.get(event.blind, 'a blind')} {event.amount:,}{all_in}",
            amount=event.amount,
            all_in=event.all_in,
        )
    elif kind == "action":
        line.update(
            text=_action_text(event, moment.before, name, moment.source),
            action=str(event.action),
            amount=event.amount,
            to=event.to,
            all_in=event.all_in,
        )
    elif kind == "all_in_protected":
        line["text"] = f"{name} is disconnected: all-in protection for {event.committed:,}"
    elif kind == "uncalled_returned":
        line.update(text=f"Uncalled {event.amount:,} returned to {name}", amount=event.amount)
    elif kind == "street":
        line.update(
            text=f"{STREET_TITLES[event.street]}: {cards_text(event.cards)}",
            cards=list(event.cards),
        )
    elif kind == "hands_tabled":
        hands = ", ".join(
            f"{names.get(s, f'Seat {s + 1}')} {cards_text(hole)}" for s, hole in event.hands.items()
        )
        line.update(
            text=f"All in: the hands are turned face up ({hands})",
            cards=[card for hole in event.hands.values() for card in hole],
        )
    elif kind == "showdown":
        line.update(
            text=f"{name} shows {cards_text(event.hole)} ({_category(event.category)})",
            cards=list(event.hole),
        )
    elif kind == "mucked":
        line["text"] = f"{name} mucks"
    elif kind == "pot_awarded":
        label = _pot_label(event.index, pot_count)
        rake = f" (rake {event.rake:,})" if event.rake else ""
        collected = " and ".join(
            f"{names.get(s, f'Seat {s + 1}')} collects {chips:,}"
            for s, chips in event.shares.items()
            if chips
        )
        line.update(text=f"{collected} from {label}{rake}", amount=event.amount)
    else:
        return None  # hand_started (the page's heading), hand_ended (the players' table)
    return line


def later_choices(record: HandRecord, moments: list[Moment], names: dict) -> list[dict]:
    """Shows and mucks chosen once the hand was over (RULES.md 4: Show or Muck, or the
    uncontested winner's show): in the stored result, not in the replayed events."""
    shown_then = {m.event.seat for m in moments if m.event.kind == "showdown"}
    for moment in moments:
        if moment.event.kind == "hands_tabled":
            shown_then.update(moment.event.hands)
    mucked_then = {m.event.seat for m in moments if m.event.kind == "mucked"}
    lines = []
    for key, hole in record.shown.items():
        seat = int(key)
        if seat not in shown_then:
            lines.append(
                {
                    "kind": "hand_shown",
                    "street": "result",
                    "seat": seat,
                    "text": f"{names.get(seat, f'Seat {seat + 1}')} shows {cards_text(hole)}",
                    "cards": list(hole),
                }
            )
    for seat in (record.result or {}).get("mucked", []):
        if seat not in mucked_then:
            lines.append(
                {
                    "kind": "mucked",
                    "street": "result",
                    "seat": seat,
                    "text": f"{names.get(seat, f'Seat {seat + 1}')} mucks",
                }
            )
    return lines


def stakes_text(options: dict) -> str:
    """The stakes as the pages write them: "100/200", with a tournament level's ante
    (RULES.md 8) "100/200, ante 25"."""
    if options["structure"] == "fixed_limit":
        stakes = f"{options['small_bet']:,}/{options['big_bet']:,}"
    else:
        stakes = f"{options['small_blind']:,}/{options['big_blind']:,}"
    ante = options.get("ante", 0)
    return f"{stakes}, ante {ante:,}" if ante else stakes


def played_at_text(moment) -> str:
    """When a hand was dealt, in the site's time zone: "1 Dec 2026, 08:52:50 UTC"."""
    local = timezone.localtime(moment)
    return f"{local.day} {local:%b %Y, %H:%M:%S} {local.tzname()}"


def hand_story(record: HandRecord) -> dict:
    """The complete public record of a finished hand: every blind posted, every action with the
    chips it put in (calls and all-ins included), the streets, what was shown, the pots and who
    collected what, and when it was played. No hole card but those shown to the table."""
    names = {p["seat"]: p["username"] for p in record.players}
    rows = list(record.actions.all())
    moments = hand_moments(record, rows)
    result = record.result or {}
    pots = result.get("pots") or record.pots
    lines = []
    for moment in moments:
        line = moment_line(moment, names, len(pots))
        if line is not None:
            lines.append(line)
    lines.extend(later_choices(record, moments, names))
    return {
        "played_at": played_at_text(record.started_at),
        "structure": STRUCTURE_NAMES[record.options["structure"]],
        "stakes": stakes_text(record.options),
        "blinds": [line for line in lines if line["kind"] == "blind_posted"],
        "story": lines,
        "actions": [
            {
                "seat": row.seat,
                "action": row.action,
                "amount": row.amount,
                "street": row.street,
                "source": row.source,
            }
            for row in rows
        ],
        "pots": [
            {
                **pot,
                "label": _pot_title(index, len(pots)),
                "collected": [
                    {"seat": int(s), "username": names.get(int(s), ""), "amount": chips}
                    for s, chips in pot["shares"].items()
                    if chips
                ],
            }
            for index, pot in enumerate(pots)
        ],
        "returned": [
            {"seat": int(s), "username": names.get(int(s), ""), "amount": chips}
            for s, chips in result.get("returned", {}).items()
            if chips
        ],
    }

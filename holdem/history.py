"""Hand histories: the PokerStars text, the complete record of a finished hand and its replay.

A finished hand is replayed through the engine from its record (options, stacks, deck, the
action log), so every amount written or shown is the engine's own, to the chip.
"""

from dataclasses import dataclass

from django.utils import timezone

from holdem import engine
from holdem.models import HandRecord

STRUCTURE_NAMES = {"no_limit": "No Limit", "pot_limit": "Pot Limit", "fixed_limit": "Limit"}


def _hand_start(record: HandRecord):
    """The engine's first state and events of a stored hand: the blinds posted, the cards dealt."""
    options = engine.HandOptions(**record.options)
    seats = [
        engine.SeatIn(
            seat=p["seat"],
            stack=p["stack_before"],
            post=p.get("post", "none"),
            auto_muck=p.get("auto_muck", True),
        )
        for p in record.players
    ]
    return engine.start_hand(options, seats, record.button_seat, record.deck)


def _apply_row(state, row):
    """One row of the action log applied to the hand, as the table applied it."""
    if row.source == "timeout":
        return engine.apply_timeout(state, row.seat)
    if row.source == "disconnect":
        return engine.apply_disconnect(state, row.seat, row.action == "protected")
    return engine.apply_action(state, row.seat, row.action, row.amount)


def replay_record(record: HandRecord, events: list | None = None):
    """Yield (action row, state before, state after) for every logged action of a hand. With
    `events`, the engine's events of the hand are appended to it as well, in order."""
    state, happened = _hand_start(record)
    if events is not None:
        events.extend(happened)
    steps = []
    # The log's own ordering (hand, index): a prefetched log is used as it is.
    for row in record.actions.all():
        before = state
        state, happened = _apply_row(state, row)
        if events is not None:
            events.extend(happened)
        steps.append((row, before, state))
    return state, steps


def hand_log(record: HandRecord) -> list[dict]:
    """The public engine events of a hand so far, as the table's `event` frames carried them:
    what a player who reloads the page needs to write the table log again."""
    events: list = []
    replay_record(record, events)
    return [event.as_dict() for event in events if event.private_to is None]


def pokerstars_text(record: HandRecord, viewer_id: int | None = None) -> str:
    """The hand as PokerStars writes it. Hole cards: the viewer's own and those shown."""
    final, steps = replay_record(record)
    names = {p["seat"]: p["username"] for p in record.players}
    options = record.options
    if options["structure"] == "fixed_limit":
        stakes = f"{options['small_bet']}/{options['big_bet']}"
    else:
        stakes = f"{options['small_blind']}/{options['big_blind']}"
    lines = [
        f"PokerStars Hand #{record.pk}: Hold'em {STRUCTURE_NAMES[options['structure']]} ({stakes}) - "
        f"{record.started_at.strftime('%Y/%m/%d %H:%M:%S')} UTC",
        f"Table '{record.table.name}' {record.table.seats}-max Seat #{record.button_seat + 1} is the button",
    ]
    for p in record.players:
        lines.append(f"Seat {p['seat'] + 1}: {p['username']} ({p['stack_before']} in chips)")
    start, _ = engine.start_hand(
        engine.HandOptions(**options),
        [
            engine.SeatIn(seat=p["seat"], stack=p["stack_before"], post=p.get("post", "none"))
            for p in record.players
        ],
        record.button_seat,
        record.deck,
    )
    sb_index = start.small_blind_index
    for player in start.players[sb_index:] + start.players[:sb_index]:  # blinds first, clockwise
        if player.dead:
            lines.append(f"{names[player.seat]}: posts dead small blind {player.dead}")
        if player.bet:
            label = "small blind" if player.seat == start.small_blind_seat else "big blind"
            lines.append(
                f"{names[player.seat]}: posts {label} {player.bet}{' and is all-in' if player.stack == 0 else ''}"
            )
    lines.append("*** HOLE CARDS ***")
    viewer_seat = next((p["seat"] for p in record.players if p["user_id"] == viewer_id), None)
    if viewer_seat is not None:
        lines.append(f"Dealt to {names[viewer_seat]} [{' '.join(start.player(viewer_seat).hole)}]")
    for row, before, after in steps:
        lines.append(_action_line(names[row.seat], row, before, after))
        _board_lines(lines, before, after)
    _summary(lines, record, final, names)
    return "\n".join(lines) + "\n"


def _action_line(name, row, before, after) -> str:
    was, now = before.player(row.seat), after.player(row.seat)
    added = now.committed + now.returned - was.committed - was.returned
    all_in = " and is all-in" if now.stack == 0 and added > 0 else ""
    if now.folded and not was.folded:
        return f"{name}: folds"
    if row.source == "disconnect":
        return f"{name}: is disconnected (all-in protection)"
    if added == 0:
        return f"{name}: checks"
    total = was.bet + added
    if before.current_bet == 0:
        return f"{name}: bets {added}{all_in}"
    if total <= before.current_bet:
        return f"{name}: calls {added}{all_in}"
    return f"{name}: raises {total - before.current_bet} to {total}{all_in}"


def _board_lines(lines, before, after) -> None:
    """Write the board deals that followed an action (several when the board runs out)."""
    board = list(after.board)
    for size, title in ((3, "FLOP"), (4, "TURN"), (5, "RIVER")):
        if len(before.board) < size <= len(board):
            if size == 3:
                lines.append(f"*** FLOP *** [{' '.join(board[:3])}]")
            else:
                lines.append(f"*** {title} *** [{' '.join(board[: size - 1])}] [{board[size - 1]}]")


def _summary(lines, record, final, names) -> None:
    result = final.result
    for seat, chips in result.returned.items():
        if chips:
            lines.append(f"Uncalled bet ({chips}) returned to {names[seat]}")
    if result.shown:
        lines.append("*** SHOW DOWN ***")
        for seat, hole in result.shown.items():
            best = result.best.get(seat) if result.best else None
            described = f" ({best['category']})" if best else ""
            lines.append(f"{names[seat]}: shows [{' '.join(hole)}]{described}")
    for index, pot in enumerate(result.pots):
        label = "pot" if index == 0 else f"side pot-{index}"
        if len(result.pots) > 1 and index == 0:
            label = "main pot"
        for seat, chips in pot.shares.items():
            if chips:
                lines.append(f"{names[seat]} collected {chips} from {label}")
    lines.append("*** SUMMARY ***")
    total = sum(p.amount for p in result.pots)
    lines.append(f"Total pot {total} | Rake {result.rake}")
    if final.board:
        lines.append(f"Board [{' '.join(final.board)}]")
    for player in final.players:
        role = ""
        if player.seat == record.button_seat:
            role = " (button)"
        elif player.seat == final.small_blind_seat:
            role = " (small blind)"
        elif player.seat == final.big_blind_seat:
            role = " (big blind)"
        won = result.payouts.get(player.seat, 0)
        if player.folded:
            what = "folded"
        elif player.seat in result.shown:
            what = f"showed [{' '.join(result.shown[player.seat])}] and {'won (' + str(won) + ')' if won else 'lost'}"
        elif won:
            what = f"collected ({won})"
        else:
            what = "mucked"
        lines.append(f"Seat {player.seat + 1}: {names[player.seat]}{role} {what}")


# ---- The complete record and the replay -------------------------------------------------------
# The engine's events carry every amount (the blinds, what each call or all-in put in, the pots
# and who collected them); the action log keeps only the player's choice. Both the record on the
# history pages and the replayer are made from the events of a replay of the stored hand.

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
}
BOARD_STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
SOURCE_WORDS = {"timeout": "time ran out", "disconnect": "disconnected", "pre_action": "pre-action"}


@dataclass(frozen=True)
class Moment:
    """One public event of a hand with the hand just before the engine step that made it
    (`before`: an action's step starts where the action was chosen) and right after the event
    (`state`). `source`: how the logged action of the step came in ("" for the deal)."""

    event: engine.Event
    before: engine.HandState
    state: engine.HandState
    source: str


def hand_moments(record: HandRecord, rows=None) -> list[Moment]:
    """Every public event of a stored hand, in order, each with the hand as it stood right after
    it. One engine step can hold several events (a call, the uncalled chips returned, the flop):
    the states between them are rebuilt from the events; the step's last one is the engine's."""
    state, events = _hand_start(record)
    stacks = {p["seat"]: p["stack_before"] for p in record.players}
    opening = state.replace(
        players=tuple(
            engine.PlayerState(
                seat=p.seat, stack=stacks[p.seat], hole=p.hole, auto_muck=p.auto_muck
            )
            for p in state.players
        ),
        board=(),
        street=engine.Street.PREFLOP,
        actor=None,
        current_bet=0,
        raises=0,
        aggressor=None,
        result=None,
    )
    moments = _step_moments(opening, events, state, "")
    for row in record.actions.all() if rows is None else rows:
        before = state
        state, events = _apply_row(state, row)
        moments.extend(_step_moments(before, events, state, row.source))
    return moments


def _step_moments(before, events, after, source: str) -> list[Moment]:
    public = [event for event in events if event.private_to is None]  # no HoleCards
    players = list(before.players)
    where = {p.seat: index for index, p in enumerate(players)}
    board, street, gathered = before.board, before.street, False
    moments = []
    for number, event in enumerate(public):
        kind = event.kind
        if kind in ("pot_awarded", "hand_ended") or number == len(public) - 1:
            moments.append(Moment(event, before, after, source))
            continue
        seat = getattr(event, "seat", None)
        if kind == "blind_posted":
            p = players[where[seat]]
            live = 0 if event.blind == "dead" else event.amount
            players[where[seat]] = p.replace(
                stack=p.stack - event.amount,
                bet=p.bet + live,
                committed=p.committed + event.amount,
                dead=p.dead + event.amount - live,
            )
        elif kind == "action":
            p = players[where[seat]]
            players[where[seat]] = p.folds() if event.action == "fold" else p.pays(event.amount)
        elif kind == "all_in_protected":
            players[where[seat]] = players[where[seat]].replace(protected=True)
        elif kind == "uncalled_returned":
            players[where[seat]] = players[where[seat]].gets_back(event.amount)
        elif kind in ("street", "hands_tabled", "showdown", "mucked") and not gathered:
            players = [p.next_round() for p in players]  # RULES.md 3: the bets go to the pot
            gathered = True
        if kind == "street":
            board, street = event.board, event.street
        elif kind in ("showdown", "mucked"):
            street = engine.Street.SHOWDOWN
        state = before.replace(
            players=tuple(players),
            board=board,
            street=street,
            actor=None,
            current_bet=0 if gathered else before.current_bet,
        )
        moments.append(Moment(event, before, state, source))
    return moments


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


def _line_street(moment: Moment) -> str:
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


def _moment_line(moment: Moment, names: dict, pot_count: int) -> dict | None:
    """The record's line for one moment, or None for the events the record says otherwise."""
    event = moment.event
    kind = event.kind
    seat = getattr(event, "seat", None)
    name = names.get(seat, f"Seat {seat + 1}") if seat is not None else ""
    line = {"kind": kind, "street": _line_street(moment), "seat": seat}
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


def _later_choices(record: HandRecord, moments: list[Moment], names: dict) -> list[dict]:
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
    if options["structure"] == "fixed_limit":
        return f"{options['small_bet']:,}/{options['big_bet']:,}"
    return f"{options['small_blind']:,}/{options['big_blind']:,}"


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
        line = _moment_line(moment, names, len(pots))
        if line is not None:
            lines.append(line)
    lines.extend(_later_choices(record, moments, names))
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


def hand_replay(record: HandRecord, viewer_seat: int | None) -> dict:
    """The steps of a finished hand for the replayer: one per public event (the pots' awards
    make one last step), each the table as it stood right after it, drawn like a table frame.
    The viewer sees their own hole cards; another player's only once the table saw them (the
    hands turned face up for an all-in run-out, or shown at the showdown), and at the last step
    the hands shown when the hand was over. Mucked and folded hands stay face down."""
    names = {p["seat"]: p["username"] for p in record.players}
    moments = hand_moments(record)
    stored = record.result or {}
    shown_after = {int(seat): list(hole) for seat, hole in record.shown.items()}
    pots = stored.get("pots") or record.pots
    revealed: dict[int, list[str]] = {}
    steps: list[dict] = []
    awarded: list[str] = []
    for moment in moments:
        event = moment.event
        if event.kind == "hands_tabled":
            revealed.update({seat: list(hole) for seat, hole in event.hands.items()})
        elif event.kind == "showdown":
            revealed[event.seat] = list(event.hole)
        # Only hands the stored result says were shown (it keeps every one the table saw).
        revealed = {seat: hole for seat, hole in revealed.items() if seat in shown_after}
        if event.kind == "pot_awarded":
            awarded.append(_moment_line(moment, names, len(pots))["text"])
            continue
        if event.kind == "hand_ended":
            later = [line["text"] for line in _later_choices(record, moments, names)]
            steps.append(
                _result_step(record, moment.state, viewer_seat, shown_after, awarded + later)
            )
            continue
        line = _moment_line(moment, names, len(pots))
        step = {
            "kind": event.kind,
            "street": _line_street(moment),
            "seat": getattr(event, "seat", None),
            "text": line["text"] if line else _start_text(record, event, names),
            "hand": _hand_frame(moment.state),
            "seats": _seat_frames(moment.state, viewer_seat, revealed),
        }
        if event.kind == "action":
            step["event"] = event.as_dict()  # the table's own words for a seat's last action
        steps.append(step)
    you = next((p for p in record.players if p["seat"] == viewer_seat), None)
    return {
        "hand_id": record.pk,
        "table": record.table.name,
        "seat_count": max(record.table.seats, *(p["seat"] + 1 for p in record.players)),
        "button": record.button_seat,
        "players": [{"seat": p["seat"], "username": p["username"]} for p in record.players],
        "you": {"seat": viewer_seat, "username": you["username"]} if you else None,
        "steps": steps,
    }


def _start_text(record: HandRecord, event, names: dict) -> str:
    """The first step's words, as the table's log starts a hand."""
    blinds = f"{event.small_blind:,}/{event.big_blind:,}"
    return f"Hand #{record.pk} · blinds {blinds} · {names.get(event.button, '')} has the button"


def _hand_frame(state) -> dict:
    seen = engine.view(state, None)
    return {
        key: seen[key]
        for key in (
            "street",
            "board",
            "button",
            "small_blind_seat",
            "big_blind_seat",
            "small_blind",
            "big_blind",
            "pot_total",
            "pots",
            "to_act",
        )
    }


def _seat_frames(state, viewer_seat: int | None, revealed: dict) -> list[dict]:
    """The seats of the hand at one step. Hole cards: the viewer's own and those `revealed`."""
    seats = []
    for entry in engine.view(state, None)["seats"]:
        entry.pop("hole", None)  # the engine's view shows the replayed showdown: ours decides
        seat = entry["seat"]
        if seat == viewer_seat:
            entry["hole"] = list(state.player(seat).hole)
        elif seat in revealed:
            entry["hole"] = revealed[seat]
        seats.append(entry)
    return seats


def _result_step(record, final, viewer_seat, shown_after: dict, lines: list[str]) -> dict:
    """The last step: the pots paid, the final stacks, every hand shown (the table's last hand)."""
    stored = record.result or {}
    winners = sorted({seat for pot in stored.get("pots", []) for seat in pot["winners"]})
    uncontested = bool(stored.get("uncontested"))
    return {
        "kind": "result",
        # Uncontested: the street it ended on (no showdown to jump to).
        "street": BOARD_STREETS[len(final.board)] if uncontested else "showdown",
        "seat": None,
        "text": " · ".join(lines),
        "hand": None,
        "seats": _seat_frames(final, viewer_seat, shown_after),
        "result": {
            "board": list(final.board),
            "pots": [
                {key: pot[key] for key in ("amount", "rake", "winners", "shares")}
                for pot in stored.get("pots", [])
            ],
            "winners": winners,
            "net": stored.get("net", {}),
            "shown": {str(seat): hole for seat, hole in shown_after.items()},
            "best": {
                seat: best
                for seat, best in stored.get("best", {}).items()
                if int(seat) in shown_after
            },
            "uncontested": uncontested,
            "undecided": [],
        },
    }

"""The hand as PokerStars writes its history text, replayed from the stored record: the seats,
the blinds, every action and deal, the showdown, the pots collected and the summary. (Read back
by tests/holdem/test_pokerstars_parse.py, a strict parser of the format.)"""

from holdem import engine
from holdem.history.stored_hand import record_start, replay_record
from holdem.history.story import STRUCTURE_NAMES
from holdem.models import HandRecord
from holdem.selectors.fairness import hand_fairness


def pokerstars_text(record: HandRecord, viewer_id: int | None = None) -> str:
    """The hand as PokerStars writes it. Hole cards: the viewer's own and those shown."""
    final, steps = replay_record(record)
    names = {p["seat"]: p["username"] for p in record.players}
    lines = _header(record)
    for p in record.players:
        lines.append(f"Seat {p['seat'] + 1}: {p['username']} ({p['stack_before']} in chips)")
    start, opening = record_start(record)
    lines += _post_lines(opening, names)
    lines.append("*** HOLE CARDS ***")
    viewer_seat = next((p["seat"] for p in record.players if p["user_id"] == viewer_id), None)
    if viewer_seat is not None:
        lines.append(f"Dealt to {names[viewer_seat]} [{' '.join(start.player(viewer_seat).hole)}]")
    for row, before, after in steps:
        lines.append(_action_line(names[row.seat], row, before, after))
        _board_lines(lines, before, after)
    _summary(lines, record, final, _chosen_result(record, final), names)
    lines += _commitment_lines(hand_fairness(record, viewer_id))
    return "\n".join(lines) + "\n"


def _commitment_lines(fairness) -> list[str]:
    """After the summary, docs/fairness.md: the deck commitment made before the deal, each card
    this text shows with its salt, and every other position as its leaf (bin/verify-hand)."""
    if fairness is None:
        return []
    lines = [
        "*** DECK COMMITMENT ***",
        f"Commitment {fairness['commitment']} ({fairness['scheme']})",
    ]
    for entry in fairness["cards"]:
        if "card" in entry:
            lines.append(f"Position {entry['position']}: [{entry['card']}] salt {entry['salt']}")
        else:
            lines.append(f"Position {entry['position']}: hidden {entry['leaf']}")
    return lines


# RULES.md 8: a tournament header names the level in roman numerals, as PokerStars does.
_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"))
_ROMAN += ((40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(number: int) -> str:
    """1 -> "I", 14 -> "XIV" (a tournament level in the header)."""
    if number < 1:
        raise ValueError("roman: numbers from 1")
    digits = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        digits.append(letters * count)
    return "".join(digits)


def _header(record: HandRecord) -> list[str]:
    """The first two lines: the hand, the game and the stakes (a tournament's, RULES.md 8, with
    its buy-in and level), the date; the table and the button."""
    options = record.options
    game = f"Hold'em {STRUCTURE_NAMES[options['structure']]}"
    if options["structure"] == "fixed_limit":
        stakes = f"{options['small_bet']}/{options['big_bet']}"
    else:
        stakes = f"{options['small_blind']}/{options['big_blind']}"
    when = f"{record.started_at.strftime('%Y/%m/%d %H:%M:%S')} UTC"
    tournament = record.tournament
    button = f"Seat #{record.button_seat + 1} is the button"
    if tournament:
        level = roman(tournament["level"])
        return [
            f"PokerStars Hand #{record.pk}: Tournament #{tournament['id']}, "
            f"{tournament['buy_in']}+{tournament['fee']} {game} - Level {level} ({stakes}) "
            f"- {when}",
            f"Table '{tournament['id']} {tournament.get('table', 1)}' {record.table.seats}-max "
            f"{button}",
        ]
    return [
        f"PokerStars Hand #{record.pk}: {game} ({stakes}) - {when}",
        f"Table '{record.table.name}' {record.table.seats}-max {button}",
    ]


def _post_lines(opening, names) -> list[str]:
    """The antes (RULES.md 8), one line each, then the blinds and the posts, one line per seat,
    in the order they were posted. A dead small blind of the dead button (RULES.md 8) is posted
    by nobody and has no line."""
    antes, posted = [], {}
    for event in opening:
        if event.kind != "blind_posted":
            continue
        if event.blind == "ante":
            all_in = " and is all-in" if event.all_in else ""
            antes.append(f"{names[event.seat]}: posts the ante {event.amount}{all_in}")
        else:
            posted.setdefault(event.seat, []).append(event)
    lines = []
    for seat, events in posted.items():
        blinds = {event.blind for event in events}
        chips = sum(event.amount for event in events)
        if "dead" in blinds:
            # RULES.md 2: a live big blind and a dead small blind, one post in this format.
            what = "small & big blinds"
        elif blinds == {"small"}:
            what = "small blind"
        else:
            what = "big blind"
        all_in = " and is all-in" if any(event.all_in for event in events) else ""
        lines.append(f"{names[seat]}: posts {what} {chips}{all_in}")
    return antes + lines


def _chosen_result(record: HandRecord, final):
    """The result with the choices made once the hand was over (RULES.md 4: an uncontested
    winner's show, Show or Muck at the showdown), which the stored final state keeps and the
    replayed log does not."""
    if not record.final_state:
        return final.result
    return engine.state_from_json(record.final_state).result


def _action_line(name, row, before, after) -> str:
    was, now = before.player(row.seat), after.player(row.seat)
    added = now.committed + now.returned - was.committed - was.returned
    # From the stack before: one that ends the hand is paid its winnings in the same step.
    all_in = " and is all-in" if added and added == was.stack else ""
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


def _summary(lines, record, final, result, names) -> None:
    """The pots' lines and the summary; `result` is the final one, with the later choices."""
    for seat, chips in result.returned.items():
        if chips:
            lines.append(f"Uncalled bet ({chips}) returned to {names[seat]}")
    if result.shown and not result.uncontested:
        lines.append("*** SHOW DOWN ***")
        _shows(lines, result, names)
    for index, pot in enumerate(result.pots):
        label = "pot" if index == 0 else f"side pot-{index}"
        if len(result.pots) > 1 and index == 0:
            label = "main pot"
        for seat, chips in pot.shares.items():
            if chips:
                lines.append(f"{names[seat]} collected {chips} from {label}")
    if result.uncontested:
        _shows(lines, result, names)  # the winner chose to show: after the pot, in this format
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


def _shows(lines, result, names) -> None:
    for seat, hole in result.shown.items():
        best = result.best.get(seat) if result.best else None
        described = f" ({best['category']})" if best else ""
        lines.append(f"{names[seat]}: shows [{' '.join(hole)}]{described}")

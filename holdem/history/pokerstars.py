"""The hand as PokerStars writes its history text, replayed from the stored record: the seats,
the blinds, every action and deal, the showdown, the pots collected and the summary. (Read back
by tests/holdem/test_pokerstars_parse.py, a strict parser of the format.)"""

from holdem import engine
from holdem.history.stored_hand import replay_record
from holdem.history.story import STRUCTURE_NAMES
from holdem.models import HandRecord


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
        all_in = " and is all-in" if player.stack == 0 else ""
        if player.dead:
            # RULES.md 2: a live big blind and a dead small blind, one post in this format.
            posted = f"small & big blinds {player.bet + player.dead}"
        elif player.bet:
            label = "small blind" if player.seat == start.small_blind_seat else "big blind"
            posted = f"{label} {player.bet}"
        else:
            continue
        lines.append(f"{names[player.seat]}: posts {posted}{all_in}")
    lines.append("*** HOLE CARDS ***")
    viewer_seat = next((p["seat"] for p in record.players if p["user_id"] == viewer_id), None)
    if viewer_seat is not None:
        lines.append(f"Dealt to {names[viewer_seat]} [{' '.join(start.player(viewer_seat).hole)}]")
    for row, before, after in steps:
        lines.append(_action_line(names[row.seat], row, before, after))
        _board_lines(lines, before, after)
    _summary(lines, record, final, _chosen_result(record, final), names)
    return "\n".join(lines) + "\n"


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

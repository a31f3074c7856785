"""A hand as its admin page reads it: the history's public story street by street, the players
with the cards the table saw, the pots, the stakes and rules in words."""

from django.urls import reverse

from casino.accounts.formatting import chips, signed_chips
from holdem.history.pokerstars import pokerstars_text
from holdem.history.story import cards_text, hand_story
from holdem.models import HandRecord, MinRaise, Structure


def card_faces(codes) -> list[dict]:
    """Cards as the history page writes them ("A♠"), each with its suit for the colour."""
    return [{"code": code, "text": cards_text([code]), "suit": code[1]} for code in codes]


def hand_reading(record: HandRecord) -> dict:
    """A finished hand as its page shows it: the history's public record (holdem.history
    hand_story: blinds, actions with their chips, streets, shows and mucks, pots) laid out street
    by street, and the players with the hands the table saw. No folded or mucked hole card, no
    card of the deck that was not dealt face up."""
    story = hand_story(record)
    result = record.result or {}
    shown = {int(seat): cards for seat, cards in (record.shown or {}).items()}
    best = {int(seat): value for seat, value in (result.get("best") or {}).items()}
    payouts = {int(seat): amount for seat, amount in (result.get("payouts") or {}).items()}
    mucked = set(result.get("mucked") or ())
    folded = {line["seat"] for line in story["story"] if line.get("action") == "fold"}
    streets = [{"title": "Pre-flop", "lines": []}]
    for line in story["story"]:
        if line["kind"] == "pot_awarded":
            continue  # the pots table says who collected what
        if line["kind"] == "street":
            streets.append({"title": line["text"], "lines": []})
        elif line["street"] == "showdown":
            if streets[-1]["title"] != "Showdown":
                streets.append({"title": "Showdown", "lines": []})
            streets[-1]["lines"].append(line["text"])
        else:
            streets[-1]["lines"].append(line["text"])
    players = []
    for p in record.players:
        seat = p["seat"]
        if seat in shown:
            end = (best.get(seat) or {}).get("category", "shown")
        elif seat in folded:
            end = "folded"
        elif seat in mucked:
            end = "mucked"
        else:
            end = "not shown"
        net = p["stack_after"] - p["stack_before"]
        players.append(
            {
                "seat": seat + 1,
                "username": p["username"],
                "user_url": reverse("admin:accounts_user_change", args=[p["user_id"]]),
                "button": seat == record.button_seat,
                "cards": card_faces(shown.get(seat, ())),
                "end": end,
                "before": chips(p["stack_before"]),
                "after": chips(p["stack_after"]),
                "net": signed_chips(net),
                "net_sign": (net > 0) - (net < 0),
                "collected": chips(payouts[seat]) if payouts.get(seat) else "",
            }
        )
    pots = [
        {
            "label": pot["label"],
            "amount": chips(pot["amount"]),
            "rake": chips(pot["rake"]) if pot.get("rake") else "",
            "collected": [(c["username"], chips(c["amount"])) for c in pot["collected"]],
        }
        for pot in story["pots"]
    ]
    return {
        "players": players,
        "streets": streets,
        "board": card_faces(record.board),
        "pots": pots,
        "total_pot": chips(sum(pot["amount"] for pot in story["pots"])),
        "rake": chips(record.rake),
        "pokerstars": pokerstars_text(record),
    }


def hand_stakes(options: dict) -> str:
    """The stakes of one hand from its options, as the lobby writes a room's."""
    if options["structure"] == Structure.FIXED_LIMIT:
        return (
            f"bets {chips(options['small_bet'])}/{chips(options['big_bet'])}, "
            f"blinds {chips(options['small_blind'])}/{chips(options['big_blind'])}"
        )
    return f"blinds {chips(options['small_blind'])}/{chips(options['big_blind'])}"


def hand_rules(options: dict) -> list[str]:
    """The hand's other betting rules, in words."""
    cap = options.get("raise_cap")
    rules = [
        f"raises capped at {cap} a round" if cap is not None else "no raise cap",
        f"minimum raise: {MinRaise(options.get('min_raise', MinRaise.FULL)).label}",
    ]
    if options.get("rake_percent"):
        rake_cap = options.get("rake_cap")
        rules.append(
            f"rake {options['rake_percent']}%"
            + (f" up to {chips(rake_cap)}" if rake_cap is not None else "")
        )
    return rules

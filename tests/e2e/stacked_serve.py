"""The e2e site's server: Daphne, with stacked decks in the rooms named in E2E_DECKS (a JSON
object: room name -> the first cards of every deck dealt there; the rest of the deck follows
shuffled). Only the browser tests start the site this way; the site itself has no such switch.

A test that needs one kind of hand (a showdown where a hand shown first beats the others) gets
it at the first deal instead of dealing again and again until chance brings it.
"""

import json
import os
import sys


def stack_decks() -> None:
    # Imported here, not at the top: the services' models need django.setup() first, and the
    # patch must be made before Daphne imports the application.
    import django

    django.setup()
    from holdem.engine.cards import new_deck
    from holdem.services import hand_start as hand_service

    stacked = json.loads(os.environ.get("E2E_DECKS") or "{}")
    shuffled = hand_service.hand_deck

    def hand_deck():
        # Called by hand_start(table, now): its table names the room being dealt.
        table = sys._getframe(1).f_locals.get("table")
        top = stacked.get(getattr(table, "name", None))
        if not top:
            return shuffled()
        rest = [card for card in shuffled() if card not in top]
        deck = [*top, *rest]
        assert sorted(deck) == sorted(new_deck())
        return deck

    hand_service.hand_deck = hand_deck


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    stack_decks()
    from daphne.cli import CommandLineInterface  # after the patch: Daphne loads the site

    CommandLineInterface.entrypoint()

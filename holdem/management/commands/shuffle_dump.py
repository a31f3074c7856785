"""manage.py shuffle_dump N: N shuffles from the dealer's own random source and shuffle, one per
line, for the statistical suites a test laboratory runs (docs/fairness.md)."""

from django.core.management.base import BaseCommand, CommandError

from holdem.engine.cards import new_deck
from holdem.services.shuffle import RandomSourceFailed, hand_deck

INDEX = {card: i for i, card in enumerate(new_deck())}


class Command(BaseCommand):
    help = (
        "Write N decks shuffled exactly as hands are dealt (CASINO_RANDOM_SOURCE, Fisher-Yates), "
        "one per line: card codes in dealing order, or with --indexes each card's index 0-51 in "
        "the fixed order 2c 2d 2h 2s 3c ... As."
    )

    def add_arguments(self, parser):
        parser.add_argument("count", type=int, help="how many shuffles (1 or more)")
        parser.add_argument("--indexes", action="store_true", help="numbers 0-51, not card codes")
        parser.add_argument("--output", "-o", help="a file to write (default: standard output)")

    def handle(self, *args, count, indexes, output, **options):
        if count < 1:
            raise CommandError("count: ask for one shuffle or more")
        if output:
            with open(output, "w", encoding="ascii") as out:
                self._write(out, count, indexes)
        else:
            self._write(self.stdout, count, indexes)
        if output:
            self.stderr.write(f"{count:,} shuffles written to {output}")

    def _write(self, out, count, indexes):
        try:
            for _ in range(count):
                deck = hand_deck()
                line = ",".join(str(INDEX[c]) for c in deck) if indexes else " ".join(deck)
                out.write(line + "\n")
        except RandomSourceFailed as error:
            raise CommandError(f"no shuffle written past this point: {error}") from error

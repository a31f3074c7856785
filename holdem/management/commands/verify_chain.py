"""manage.py verify_chain: walk every ledger and hand chain; name the first row altered, inserted
or removed in each broken one and exit non-zero, or print one line when all hold."""

from django.core.management.base import BaseCommand, CommandError

from holdem.selectors.chains import chains_audit


class Command(BaseCommand):
    help = (
        "Check the hash chains of the ledger (one per wallet) and of the hands (one per table); "
        "name the first record altered, inserted or removed in each broken chain."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--chunk-size",
            type=int,
            default=1000,
            help="Rows read from the database at a time (default 1000).",
        )

    def handle(self, *args, **options):
        if options["chunk_size"] < 1:
            raise CommandError("--chunk-size must be at least 1")
        audit = chains_audit(chunk_size=options["chunk_size"])
        self.stdout.write(audit.summary())
        if not audit.ok:
            raise CommandError("history chains broken")

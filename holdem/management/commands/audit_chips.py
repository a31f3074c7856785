"""manage.py audit_chips: print the chip books and exit non-zero if anything does not add up."""

from django.core.management.base import BaseCommand, CommandError
from django.db import connections

from casino.db_routing import read_db
from holdem.selectors.audit import audit_chips


class Command(BaseCommand):
    help = "Check that balances match the ledger and that every chip granted is accounted for."

    def add_arguments(self, parser):
        parser.add_argument(
            "--database",
            help="The database alias to audit (default: the replica when DATABASE_REPLICA_URL "
            "is set, else the primary). The audit reads one snapshot of it.",
        )

    def handle(self, *args, **options):
        using = options["database"] or read_db()
        if using not in connections:
            raise CommandError(f"--database {using}: no such database alias")
        audit = audit_chips(using)
        self.stdout.write(audit.summary())
        if not audit.ok:
            raise CommandError("chip audit failed")

"""manage.py audit_chips: print the chip books and exit non-zero if anything does not add up."""

from django.core.management.base import BaseCommand, CommandError

from holdem.selectors.audit import audit_chips


class Command(BaseCommand):
    help = "Check that balances match the ledger and that every chip granted is accounted for."

    def handle(self, *args, **options):
        audit = audit_chips()
        self.stdout.write(audit.summary())
        if not audit.ok:
            raise CommandError("chip audit failed")

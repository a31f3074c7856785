"""manage.py verify_chain: walk every ledger and hand chain; name the first row altered, inserted
or removed in each broken one and exit non-zero, or print one line when all hold. The heads can
be written to a file kept away from the database, and checked again later."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from django.utils import timezone

from casino.db_routing import read_db
from holdem.selectors.chains import chains_audit, kept_heads_read


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
        parser.add_argument(
            "--write-heads",
            metavar="FILE",
            help="When every chain holds, write each chain's last row and hash to FILE, to keep "
            "where the database's superusers cannot write.",
        )
        parser.add_argument(
            "--check-heads",
            metavar="FILE",
            help="Also check that every head FILE kept is still in its chain, with its hash.",
        )
        parser.add_argument(
            "--database",
            help="The database alias to walk (default: the replica when DATABASE_REPLICA_URL is "
            "set, else the primary); `direct` (DATABASE_DIRECT_URL) streams its rows past a "
            "transaction-mode pooler. The walk reads one snapshot of it.",
        )

    def handle(self, *args, **options):
        if options["chunk_size"] < 1:
            raise CommandError("--chunk-size must be at least 1")
        using = options["database"] or read_db()
        if using not in connections:
            raise CommandError(f"--database {using}: no such database alias")
        kept = []
        if options["check_heads"]:
            try:
                with open(options["check_heads"], encoding="ascii") as file:
                    kept = kept_heads_read(file)
            except (OSError, UnicodeDecodeError, ValueError) as error:
                raise CommandError(f"{options['check_heads']}: {error}") from error
        audit = chains_audit(
            chunk_size=options["chunk_size"],
            keep_heads=bool(options["write_heads"]),
            kept=kept,
            using=using,
        )
        self.stdout.write(audit.summary())
        if not audit.ok:
            raise CommandError(
                "history chains broken: no heads written"
                if options["write_heads"]
                else "history chains broken"
            )
        if options["write_heads"]:
            lines = [f"# verify_chain heads, {timezone.now().isoformat()}"]
            lines += [head.line() for head in audit.heads]
            Path(options["write_heads"]).write_text("\n".join(lines) + "\n", encoding="ascii")
            self.stdout.write(f"{len(audit.heads):,} heads written to {options['write_heads']}")

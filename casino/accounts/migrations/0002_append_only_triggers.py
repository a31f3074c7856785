"""The ledger is append-only in the database too (style.md 9): PostgreSQL refuses UPDATE and
DELETE of a ledger entry, whoever asks. The ORM guard in models.py only covers the ORM."""

from django.db import migrations

from casino.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        append_only("accounts", "LedgerEntry", "ledger entries are append-only"),
    ]

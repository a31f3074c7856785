"""Each wallet's ledger lines as a hash chain (casino/accounts/ledger_chain.py): the columns, and
the chains of the lines written before, so that `manage.py verify_chain` passes on an upgraded
database. The lines are append-only (0002): their trigger is off for this migration only."""

import django.utils.timezone
from django.db import migrations, models

from casino.accounts.ledger_chain import LEDGER_FIELDS, ledger_content
from casino.chain import GENESIS, chain_columns_write, chain_hash

BATCH = 2000


def chain_existing_lines(apps, schema_editor):
    LedgerEntry = apps.get_model("accounts", "LedgerEntry")
    Wallet = apps.get_model("accounts", "Wallet")
    postgres = schema_editor.connection.vendor == "postgresql"
    table = schema_editor.quote_name(LedgerEntry._meta.db_table)
    trigger = schema_editor.quote_name(f"{LedgerEntry._meta.db_table}_append_only")
    if postgres:
        schema_editor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}", params=None)
    heads = {}  # user id -> (length, last id, hash)
    changed = []
    lines = LedgerEntry.objects.order_by("user_id", "id")
    for line in lines.iterator(chunk_size=BATCH):
        length, last_id, last_hash = heads.get(line.user_id, (0, None, GENESIS))
        content = ledger_content({name: getattr(line, name) for name in LEDGER_FIELDS})
        line_hash = chain_hash(content, prev_id=last_id, prev_hash=last_hash)
        heads[line.user_id] = (length + 1, line.pk, line_hash)
        changed.append((line.pk, last_id, line_hash))
        if len(changed) == BATCH:
            chain_columns_write(schema_editor.connection, LedgerEntry._meta.db_table, changed)
            changed = []
    chain_columns_write(schema_editor.connection, LedgerEntry._meta.db_table, changed)
    if postgres:
        schema_editor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {trigger}", params=None)
    wallets = []
    for wallet in Wallet.objects.filter(user_id__in=list(heads)).only("id", "user").iterator():
        length, last_id, last_hash = heads[wallet.user_id]
        wallet.ledger_chain_length = length
        wallet.ledger_chain_last_id = last_id
        wallet.ledger_chain_hash = last_hash
        wallets.append(wallet)
    fields = ["ledger_chain_length", "ledger_chain_last_id", "ledger_chain_hash"]
    Wallet.objects.bulk_update(wallets, fields, batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ('accounts', '0006_ledger_kind_tournament'),
    ]

    operations = [
        migrations.AddField(
            model_name='ledgerentry',
            name='chain_hash',
            field=models.CharField(
                default='',
                editable=False,
                help_text="SHA-256 of this line and the previous one's hash (manage.py verify_chain).",
                max_length=64,
                verbose_name='chain hash',
            ),
        ),
        migrations.AddField(
            model_name='ledgerentry',
            name='chain_prev_id',
            field=models.BigIntegerField(
                blank=True, editable=False, null=True, verbose_name='previous line in the wallet'
            ),
        ),
        migrations.AddField(
            model_name='wallet',
            name='ledger_chain_hash',
            field=models.CharField(blank=True, default='', editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name='wallet',
            name='ledger_chain_last_id',
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='wallet',
            name='ledger_chain_length',
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
        migrations.AlterField(
            model_name='ledgerentry',
            name='created_at',
            field=models.DateTimeField(
                db_index=True, default=django.utils.timezone.now, editable=False
            ),
        ),
        migrations.RunPython(chain_existing_lines, migrations.RunPython.noop),
    ]

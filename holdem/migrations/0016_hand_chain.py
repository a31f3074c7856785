"""Each table's finished hands as a hash chain (holdem/hand_chain.py): the columns, and
the chains of the hands that ended before, so that `manage.py verify_chain` passes on an upgraded
database. (The action log is only read: its append-only trigger stays on.)"""

from itertools import batched

from django.db import migrations, models

from casino.chain import GENESIS, chain_columns_write, chain_hash
from holdem.hand_chain import ACTION_FIELDS, HAND_FIELDS, hand_content

BATCH = 500


def chain_finished_hands(apps, schema_editor):
    HandRecord = apps.get_model("holdem", "HandRecord")
    HandAction = apps.get_model("holdem", "HandAction")
    Table = apps.get_model("holdem", "Table")
    heads = {}  # table id -> (length, last id, hash)
    hands = HandRecord.objects.filter(ended_at__isnull=False).order_by("table_id", "id")
    for chunk in batched(hands.iterator(chunk_size=BATCH), BATCH, strict=False):
        actions = {hand.pk: [] for hand in chunk}
        rows = HandAction.objects.filter(hand_id__in=list(actions)).order_by("hand_id", "index")
        for row in rows.values("hand_id", *ACTION_FIELDS):
            actions[row["hand_id"]].append(row)
        changed = []
        for hand in chunk:
            length, last_id, last_hash = heads.get(hand.table_id, (0, None, GENESIS))
            content = hand_content(
                {name: getattr(hand, name) for name in HAND_FIELDS}, actions[hand.pk]
            )
            hand_hash = chain_hash(content, prev_id=last_id, prev_hash=last_hash)
            heads[hand.table_id] = (length + 1, hand.pk, hand_hash)
            changed.append((hand.pk, last_id, hand_hash))
        chain_columns_write(schema_editor.connection, HandRecord._meta.db_table, changed)
    tables = []
    for table in Table.objects.filter(pk__in=list(heads)).only("id").iterator():
        table.hand_chain_length, table.hand_chain_last_id, table.hand_chain_hash = heads[table.pk]
        tables.append(table)
    fields = ["hand_chain_length", "hand_chain_last_id", "hand_chain_hash"]
    Table.objects.bulk_update(tables, fields, batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [
        ('holdem', '0015_deck_commitment'),
    ]

    operations = [
        migrations.AddField(
            model_name='handrecord',
            name='chain_hash',
            field=models.CharField(blank=True, default='', editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name='handrecord',
            name='chain_prev_id',
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='table',
            name='hand_chain_hash',
            field=models.CharField(blank=True, default='', editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name='table',
            name='hand_chain_last_id',
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='table',
            name='hand_chain_length',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(chain_finished_hands, migrations.RunPython.noop),
    ]

"""A table action's UPDATE stays on the row's page (a heap-only tuple on PostgreSQL): the clock
columns lose their indexes, and the table's pages keep room for a row's next version."""

from django.db import migrations, models


def leave_room(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE holdem_table SET (fillfactor = 50)")


def fill_up(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE holdem_table RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("holdem", "0011_waitingentry")]

    operations = [
        migrations.AlterField(
            model_name="table",
            name="next_hand_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="table",
            name="turn_deadline",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="table",
            name="show_or_muck_deadline",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(leave_room, fill_up),
    ]

"""The action log of a hand is append-only in the database too: PostgreSQL refuses UPDATE and
DELETE of a hand action, whoever asks. The ORM guard in models.py only covers the ORM."""

from django.db import migrations

from casino.append_only import append_only


class Migration(migrations.Migration):
    dependencies = [
        ("holdem", "0002_connections_and_clock_beat"),
    ]

    operations = [
        append_only("holdem", "HandAction", "the action log is append-only"),
    ]

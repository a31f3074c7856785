from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("holdem", "0005_hand_actions"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="spectators",
            field=models.PositiveIntegerField(
                default=0,
                editable=False,
                help_text="Signed-in users watching without a seat, counted again when one comes "
                "or goes.",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="sent_view",
            field=models.TextField(
                blank=True,
                default="",
                editable=False,
                help_text="JSON: the public view the last event brought its clients, and a digest "
                "of each seated player's private part, so the next event sends only what changed.",
            ),
        ),
    ]

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("holdem", "0007_seat_pre_action"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="time_bank_seconds",
            field=models.PositiveSmallIntegerField(
                default=30,
                help_text="Each player's time bank: extra time once the turn clock runs out (0 = "
                "none); refilled by 5 s every 10 hands dealt, up to this.",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="turn_bank_from",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="time_bank_ms",
            field=models.PositiveIntegerField(default=30000),
        ),
        migrations.AddField(
            model_name="seat",
            name="bank_hands",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]

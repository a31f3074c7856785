from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("holdem", "0006_table_sent_view"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="pre_action",
            field=models.CharField(blank=True, default="", max_length=12),
        ),
        migrations.AddField(
            model_name="seat",
            name="pre_action_amount",
            field=models.PositiveBigIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="pre_action_round",
            field=models.CharField(blank=True, default="", max_length=24),
        ),
    ]

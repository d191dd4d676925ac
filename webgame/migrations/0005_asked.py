from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("webgame", "0004_rematch"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="asked",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]

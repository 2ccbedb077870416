"""Blocks lose their own index on ``message_id``: ``block_unique_index (message_id, index)``
serves every lookup by message, and one index fewer is less work for each block written.

Only the index is dropped. (Django's own AlterField would also drop and re-add the
foreign key, which re-checks every block of a large archive under a table lock.)"""

import django.db.models.deletion
from django.db import migrations, models

INDEX = "conversations_contentblock_message_id_27ed98f9"


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0005_page_indexes_and_search_vector"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="contentblock",
                    name="message",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="blocks",
                        to="conversations.message",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f"DROP INDEX IF EXISTS {INDEX}",
                    reverse_sql=(
                        f"CREATE INDEX {INDEX} ON conversations_contentblock (message_id)"
                    ),
                ),
            ],
        ),
    ]

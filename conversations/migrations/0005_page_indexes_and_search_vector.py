"""Indexes for the list page's orders, and a stored search vector.

Search used to run ``to_tsvector`` on every message it looked at (the 0002 index only
helps when the planner starts from the index); the generated ``search_vector`` column is
computed once when a message is written, and the GIN index moves onto it. Like 0002, the
GIN index exists on PostgreSQL only.
"""

import conversations.models.archive
import django.contrib.postgres.search
from django.conf import settings
from django.db import migrations, models


OLD_INDEX = "message_search_gin"
INDEX = "message_search_vector_gin"


def move_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {OLD_INDEX}")
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON conversations_message "
            "USING gin (search_vector)"
        )


def restore_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {OLD_INDEX} ON conversations_message "
            "USING gin (to_tsvector('english'::regconfig, COALESCE(search_text, '')))"
        )


class Migration(migrations.Migration):

    dependencies = [
        ('conversations', '0004_message_position_per_thread'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='conversation',
            name='conversation_owner_recent',
        ),
        migrations.AddField(
            model_name='message',
            name='search_vector',
            field=models.GeneratedField(db_persist=True, expression=conversations.models.archive.MessageSearchVector('search_text', config='english'), output_field=django.contrib.postgres.search.SearchVectorField(null=True)),
        ),
        migrations.AddIndex(
            model_name='conversation',
            index=models.Index(fields=['owner', '-created_at', '-id'], name='conversation_owner_newest'),
        ),
        migrations.AddIndex(
            model_name='conversation',
            index=models.Index(fields=['owner', '-message_count', '-created_at'], name='conversation_owner_size'),
        ),
        migrations.AddIndex(
            model_name='conversation',
            index=models.Index(fields=['owner', '-warning_count', '-created_at'], name='conversation_owner_warnings'),
        ),
        migrations.AddIndex(
            model_name='conversation',
            index=models.Index(fields=['owner', 'title', '-created_at'], name='conversation_owner_title'),
        ),
        migrations.RunPython(move_search_index, restore_search_index),
    ]

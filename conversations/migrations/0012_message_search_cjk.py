"""Search finds words inside Chinese and Japanese text, and means the same on SQLite.

Messages get ``search_cjk`` (their CJK text as characters and pairs of characters, see
``conversations.search_syntax``), filled here for the stored messages that have CJK text.
On PostgreSQL, ``search_vector`` is made again over both columns (a generated column
cannot change its expression in place) and its GIN index rebuilt once, after. On SQLite,
an FTS5 table ``message_fts`` (kept by triggers, ``conversations.sqlite_search``) serves
the search box's syntax.
"""

import django.contrib.postgres.search
from django.db import migrations, models

import conversations.models.archive
from conversations.sqlite_search import drop_message_fts, ensure_message_fts

INDEX = "message_search_vector_gin"  # as migration 0005 named it
CJK_PATTERN = "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]"


def fill_search_cjk(apps, schema_editor):
    from conversations.search_syntax import cjk_terms

    message_model = apps.get_model("conversations", "Message")
    messages = message_model.objects.using(schema_editor.connection.alias).order_by()
    messages = messages.filter(search_text__regex=CJK_PATTERN).only("id", "search_text")
    changed = []
    for message in messages.iterator(chunk_size=2000):
        message.search_cjk = cjk_terms(message.search_text)
        changed.append(message)
        if len(changed) >= 2000:
            message_model.objects.bulk_update(changed, ["search_cjk"])
            changed = []
    message_model.objects.bulk_update(changed, ["search_cjk"])


def create_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON conversations_message "
            "USING gin (search_vector)"
        )
    else:
        ensure_message_fts(schema_editor.connection)


def drop_search_index(apps, schema_editor):
    drop_message_fts(schema_editor.connection)


def vector_field(*columns):
    return models.GeneratedField(
        db_persist=True,
        expression=conversations.models.archive.MessageSearchVector(*columns, config="english"),
        output_field=django.contrib.postgres.search.SearchVectorField(null=True),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0011_conversation_dates"),
    ]

    operations = [
        migrations.AddField(
            model_name="message",
            name="search_cjk",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.RunPython(fill_search_cjk, migrations.RunPython.noop),
        # Dropping the column drops its GIN index; the index is built again below.
        migrations.RemoveField(model_name="message", name="search_vector"),
        migrations.AddField(
            model_name="message",
            name="search_vector",
            field=vector_field("search_text", "search_cjk"),
        ),
        migrations.RunPython(create_search_index, drop_search_index),
    ]

"""Conversations get their own dates, ``started_at`` and ``last_message_at``, from their
source (see ``conversations.source_dates``); the list sorts and filters by them.

Stored conversations are backfilled from what they kept of their source: the conversation
time in ``metadata.timestamp``, an export's update time among its verbatim fields, and the
timestamps of their imported messages (a replay's answers are not the source's). The
indexes (for the list's order by these dates) are built after the backfill, once, rather
than updated row by row."""

from datetime import datetime
from typing import Any

from django.db import migrations, models
from django.db.models import Max, Min, Q

BATCH = 2000


def backfill(apps: Any, schema_editor: Any) -> None:
    from conversations.source_dates import source_dates

    conversation_model = apps.get_model("conversations", "Conversation")
    source = Q(messages__replay_run__isnull=True)
    rows = (
        conversation_model.objects.using(schema_editor.connection.alias)
        .order_by()
        .annotate(
            first_message=Min("messages__timestamp", filter=source),
            last_message=Max("messages__timestamp", filter=source),
        )
        .only("id", "source_format", "metadata", "extra")
    )
    changed = []
    for row in rows.iterator(chunk_size=BATCH):
        row.started_at, row.last_message_at = source_dates(
            format_id=row.source_format,
            started=_stored_time((row.metadata or {}).get("timestamp")),
            extra=row.extra,
            message_times=[row.first_message, row.last_message],
        )
        if row.started_at is not None:
            changed.append(row)
        if len(changed) >= BATCH:
            conversation_model.objects.bulk_update(changed, ["started_at", "last_message_at"])
            changed = []
    conversation_model.objects.bulk_update(changed, ["started_at", "last_message_at"])


def _stored_time(value: object) -> datetime | None:
    # Stored as UMF's JSON writes it: an ISO 8601 string.
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


# Not in the model's state: SQLite refuses NULLS LAST in an index, and Django remakes a
# SQLite table (and its indexes, from the state) whenever a migration changes a column.
INDEXES = [
    models.Index(
        models.F("owner"),
        models.OrderBy(models.F("started_at"), descending=True, nulls_last=True),
        models.OrderBy(models.F("created_at"), descending=True),
        models.OrderBy(models.F("id"), descending=True),
        name="conversation_owner_started",
    ),
    models.Index(
        models.F("owner"),
        models.OrderBy(models.F("started_at"), nulls_last=True),
        models.OrderBy(models.F("created_at")),
        models.OrderBy(models.F("id")),
        name="conversation_owner_first",
    ),
]


def add_indexes(apps, schema_editor):
    conversation_model = apps.get_model("conversations", "Conversation")
    for index in INDEXES:
        if schema_editor.connection.vendor != "postgresql":
            # SQLite takes no NULLS LAST in an index; its NULLs sort first, so that
            # descending dates put them last already.
            index = models.Index(
                *[
                    models.OrderBy(e.expression, descending=e.descending)
                    if isinstance(e, models.OrderBy)
                    else e
                    for e in index.expressions
                ],
                name=index.name,
            )
        schema_editor.add_index(conversation_model, index)


def remove_indexes(apps, schema_editor):
    conversation_model = apps.get_model("conversations", "Conversation")
    for index in INDEXES:
        schema_editor.remove_index(conversation_model, index)


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0010_message_hidden"),
    ]

    operations = [
        migrations.AddField(
            model_name="conversation",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="conversation",
            name="last_message_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.RunPython(add_indexes, remove_indexes),
    ]

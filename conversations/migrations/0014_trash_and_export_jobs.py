"""The trash and export jobs (issue 20, item 3).

``Conversation.deleted_at`` puts a conversation in the trash; every list query asks for
those out of it, so the indexes of the list's orders now hold only those (partial, ``WHERE
deleted_at IS NULL``): a trash of many conversations at the head of an order is never
walked over. The two indexes by the conversation's own date, made by hand in 0011 (not in
the model's state: SQLite refuses their NULLS LAST), are made again the same way. The
trash has an index of its own, over the trashed conversations only."""

import conversations.models.archive
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


# As in 0011, now partial.
LIVE = models.Q(deleted_at__isnull=True)
BY_OWN_DATE = [
    (
        "conversation_owner_started",
        [
            models.OrderBy(models.F("started_at"), descending=True, nulls_last=True),
            models.OrderBy(models.F("created_at"), descending=True),
            models.OrderBy(models.F("id"), descending=True),
        ],
    ),
    (
        "conversation_owner_first",
        [
            models.OrderBy(models.F("started_at"), nulls_last=True),
            models.OrderBy(models.F("created_at")),
            models.OrderBy(models.F("id")),
        ],
    ),
]


def _index(name, order, condition, vendor):
    if vendor != "postgresql":
        # SQLite takes no NULLS LAST in an index; its NULLs sort first, so that
        # descending dates put them last already.
        order = [models.OrderBy(e.expression, descending=e.descending) for e in order]
    return models.Index(models.F("owner"), *order, name=name, condition=condition)


def _remake(apps, schema_editor, condition):
    conversation_model = apps.get_model("conversations", "Conversation")
    vendor = schema_editor.connection.vendor
    for name, order in BY_OWN_DATE:
        schema_editor.remove_index(conversation_model, _index(name, order, None, vendor))
        schema_editor.add_index(conversation_model, _index(name, order, condition, vendor))


def partial_indexes(apps, schema_editor):
    _remake(apps, schema_editor, LIVE)


def whole_indexes(apps, schema_editor):
    _remake(apps, schema_editor, None)


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0013_replay_turn_request_delta"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ExportJob",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=conversations.models.archive.uuid7,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                ("format", models.CharField(max_length=40)),
                ("selection", models.JSONField(default=dict)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "Queued"),
                            ("running", "Running"),
                            ("succeeded", "Succeeded"),
                            ("failed", "Failed"),
                        ],
                        default="queued",
                        max_length=10,
                    ),
                ),
                ("total", models.PositiveIntegerField(default=0)),
                ("processed", models.PositiveIntegerField(default=0)),
                ("warning_count", models.PositiveIntegerField(default=0)),
                ("filename", models.CharField(blank=True, max_length=255)),
                ("error", models.TextField(blank=True)),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("lease_expires_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={
                "ordering": ["-created_at"],
            },
        ),
        migrations.RemoveIndex(
            model_name="conversation",
            name="conversation_owner_newest",
        ),
        migrations.RemoveIndex(
            model_name="conversation",
            name="conversation_owner_size",
        ),
        migrations.RemoveIndex(
            model_name="conversation",
            name="conversation_owner_warnings",
        ),
        migrations.RemoveIndex(
            model_name="conversation",
            name="conversation_owner_title",
        ),
        migrations.AddField(
            model_name="conversation",
            name="deleted_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="conversation",
            index=models.Index(
                condition=models.Q(("deleted_at__isnull", True)),
                fields=["owner", "-created_at", "-id"],
                name="conversation_owner_newest",
            ),
        ),
        migrations.AddIndex(
            model_name="conversation",
            index=models.Index(
                condition=models.Q(("deleted_at__isnull", True)),
                fields=["owner", "-message_count", "-created_at"],
                name="conversation_owner_size",
            ),
        ),
        migrations.AddIndex(
            model_name="conversation",
            index=models.Index(
                condition=models.Q(("deleted_at__isnull", True)),
                fields=["owner", "-warning_count", "-created_at"],
                name="conversation_owner_warnings",
            ),
        ),
        migrations.AddIndex(
            model_name="conversation",
            index=models.Index(
                condition=models.Q(("deleted_at__isnull", True)),
                fields=["owner", "title", "-created_at"],
                name="conversation_owner_title",
            ),
        ),
        migrations.AddIndex(
            model_name="conversation",
            index=models.Index(
                condition=models.Q(("deleted_at__isnull", False)),
                fields=["owner", "-deleted_at", "-id"],
                name="conversation_owner_trash",
            ),
        ),
        migrations.AddField(
            model_name="exportjob",
            name="file",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="export_job",
                to="conversations.upload",
            ),
        ),
        migrations.AddField(
            model_name="exportjob",
            name="owner",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="export_jobs",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddIndex(
            model_name="exportjob",
            index=models.Index(
                fields=["status", "lease_expires_at"], name="export_job_status_lease"
            ),
        ),
        migrations.RunPython(partial_indexes, whole_indexes),
    ]

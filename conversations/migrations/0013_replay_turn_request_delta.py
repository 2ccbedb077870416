"""A replay turn stores its request as a reference to the turn before it plus a delta,
not a copy of the whole prefix (issue 21; see ``conversations.replay_requests``).

The turns stored before are converted, not only kept readable: the reading path would
rebuild them as they are (a turn with no base is read whole), but a run in mode ``each``
kept its n² bytes, which is what this change is for. Each run's turns are read one at a
time, in order, holding only the previous request; backwards, every request is rebuilt
whole again."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

import conversations.models.archive


def _turns(apps: Any, schema_editor: Any) -> Any:
    turn_model = apps.get_model("conversations", "ReplayTurn")
    return turn_model.objects.using(schema_editor.connection.alias)


def to_deltas(apps: Any, schema_editor: Any) -> None:
    from conversations.replay_requests import request_delta

    turns = _turns(apps, schema_editor)
    runs = turns.filter(request__isnull=False).values("run_id")
    runs = runs.annotate(stored=models.Count("id")).filter(stored__gt=1).values_list("run_id")
    for (run_id,) in runs.iterator(chunk_size=200):
        base = None
        ordered = turns.filter(run_id=run_id, request__isnull=False).order_by("index")
        for turn in ordered.only("id", "request").iterator(chunk_size=20):
            if base is not None:
                delta = request_delta(base.request, turn.request)
                turns.filter(pk=turn.pk).update(
                    request=None, request_base_id=base.pk, request_delta=delta
                )
            base = turn


def to_whole(apps: Any, schema_editor: Any) -> None:
    from conversations.replay_requests import requests_rebuilt

    turns = _turns(apps, schema_editor)
    runs = turns.filter(request_delta__isnull=False).values_list("run_id", flat=True).distinct()
    for run_id in list(runs):
        of_run = turns.filter(run_id=run_id).only("id", "request", "request_base", "request_delta")
        for turn_id, request in requests_rebuilt(of_run).items():
            turns.filter(pk=turn_id, request__isnull=True).update(
                request=request, request_base=None, request_delta=None
            )


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0012_message_search_cjk"),
    ]

    operations = [
        migrations.AddField(
            model_name="replayturn",
            name="request_base",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="conversations.replayturn",
            ),
        ),
        migrations.AddField(
            model_name="replayturn",
            name="request_delta",
            field=conversations.models.archive.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(to_deltas, to_whole),
    ]

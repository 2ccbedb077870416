"""The beat task purges what has been in the trash ``TRASH_DAYS`` days (time moved, not
slept), and the export jobs that ended ``EXPORT_KEEP_DAYS`` ago with their files."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from conversations import models, services, tasks
from conversations.services import export_jobs
from tests.conversations.helpers import store, tool_conversation

pytestmark = pytest.mark.django_db


def test_the_beat_task_purges_only_what_has_been_in_the_trash_long_enough(
    alice: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TRASH_DAYS = 30
    old, recent, kept = (store(alice, tool_conversation(1, name)) for name in "abc")
    services.conversations_trash(owner=alice, ids=[old.pk])
    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now + timedelta(days=20))
    services.conversations_trash(owner=alice, ids=[recent.pk])

    monkeypatch.setattr(timezone, "now", lambda: now + timedelta(days=30, seconds=1))
    assert tasks.trash_purge() == "purged 1 conversation(s) from the trash; deleted 0 export job(s)"

    remaining = set(models.Conversation.objects.values_list("pk", flat=True))
    assert remaining == {recent.pk, kept.pk}
    assert not models.Message.objects.filter(conversation_id=old.pk).exists()
    assert settings.CELERY_BEAT_SCHEDULE["purge-trash"]["task"] == tasks.trash_purge.name


def test_old_export_jobs_go_with_their_files(
    alice: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    store(alice, tool_conversation(1, "a"))
    with django_capture_on_commit_callbacks(execute=True):
        job = export_jobs.export_job_create(owner=alice, format_id="umf")
    job.refresh_from_db()
    assert job.status == "succeeded" and job.file_id is not None
    assert job.finished_at is not None
    later = job.finished_at + timedelta(days=settings.EXPORT_KEEP_DAYS, seconds=1)
    assert export_jobs.export_jobs_expire(now=later - timedelta(seconds=2)) == 0
    assert export_jobs.export_jobs_expire(now=later) == 1
    assert not models.ExportJob.objects.exists()
    assert not models.Upload.objects.exists()

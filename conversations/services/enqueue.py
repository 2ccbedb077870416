"""Sending tasks, by name, so that services never import ``tasks`` (no import cycle).

A task is sent once the transaction that wrote its row commits. The row is the truth: when
the broker cannot be reached the row stays queued, the caller is told
(:class:`QueueUnavailable`, which the API answers with a 503 naming the row), and the
reconciler (beat) sends the task once the broker is back.
"""

from __future__ import annotations

import importlib
import logging
import uuid
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)

IMPORT_JOB = "conversations.tasks.import_job_execute"
EXPORT_JOB = "conversations.tasks.export_job_execute"
REPLAY_RUN = "conversations.tasks.replay_run_execute"


class QueueUnavailable(Exception):
    """The broker could not take the task of the row ``object_id`` (of ``kind``), which
    waits, queued, for the reconciler."""

    def __init__(self, kind: str, object_id: uuid.UUID) -> None:
        super().__init__(f"the task queue cannot be reached; the {kind} waits, queued")
        self.kind = kind
        self.object_id = object_id


def send(task_name: str, object_id: uuid.UUID) -> None:
    """Send the task for the row now; :class:`QueueUnavailable` if the broker is down.
    Without a broker and with ``UMF_TASKS_IN_BACKGROUND`` (make run), run it in a
    background thread of this process instead of inside the request."""
    module, _, name = task_name.rpartition(".")
    # Imported when first used: the tasks module imports the services.
    tasks = importlib.import_module(module)
    if settings.CELERY_TASK_ALWAYS_EAGER and settings.UMF_TASKS_IN_BACKGROUND:
        tasks.run_in_background(task_name, object_id)
        return
    task = getattr(tasks, name)
    try:
        task.delay(str(object_id))
    except BrokerError as error:
        logger.warning("broker unreachable; %s %s waits: %s", task_name, object_id, error)
        raise QueueUnavailable(_KINDS[task_name], object_id) from None


def send_again(
    task_name: str, jobs: QuerySet[Any], object_id: uuid.UUID, *, lease_until: datetime
) -> bool:
    """For the reconciler: give the job ``object_id`` of ``jobs``, if still queued, until
    ``lease_until`` for its task to start, and send the task again. False when the broker
    refuses it (it is down: stop, the next round tries again)."""
    jobs.filter(pk=object_id, status="queued").update(lease_expires_at=lease_until)
    try:
        send(task_name, object_id)
    except QueueUnavailable:
        return False
    return True


def send_on_commit(task_name: str, object_id: uuid.UUID) -> None:
    """:func:`send` once the current transaction commits (a row the worker can read)."""
    transaction.on_commit(lambda: send(task_name, object_id))


_KINDS = {IMPORT_JOB: "import job", EXPORT_JOB: "export job", REPLAY_RUN: "replay run"}

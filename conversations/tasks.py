"""Celery tasks: take ids, call one service, return a short summary.

Task messages are JSON (settings), acknowledged late and rejected when the worker dies,
so a crash hands the task to another worker; the services make a second delivery
harmless (row claims with a lease, unique turns).
"""

from __future__ import annotations

import logging
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from celery import shared_task
from django.db import close_old_connections, connection

from conversations.services import export_jobs, import_jobs, replays, trash, uploads

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def replay_run_execute(self, run_id: str) -> str:  # type: ignore[no-untyped-def]
    """Execute a replay run; retry later when the service says so."""
    outcome = replays.replay_execute(run_id=uuid.UUID(run_id))
    if outcome.retry_in is not None and not self.request.is_eager:
        raise self.retry(countdown=outcome.retry_in)
    # Run inside a request (no broker), a retry would run again at once, ignoring its
    # countdown, until the stack ran out: the run stays queued for the reconciler instead.
    return outcome.summary


@shared_task
def replay_reconcile() -> str:
    """Periodic (beat): re-enqueue the replay runs and import jobs that were lost or
    whose worker vanished (import jobs claimed too often are ended as failed), end or
    re-enqueue such export jobs, and sweep the uploads no job will read."""
    runs = replays.replay_reconcile()
    jobs = import_jobs.import_job_reconcile()
    exports = export_jobs.export_job_reconcile()
    swept = uploads.uploads_sweep()
    return (
        f"re-enqueued {runs} run(s) and {jobs} import job(s); ended or re-enqueued "
        f"{exports} export job(s); swept {swept} upload(s)"
    )


@shared_task
def trash_purge() -> str:
    """Periodic (beat): purge the conversations trashed more than ``TRASH_DAYS`` ago, and
    delete the export jobs (and files) that ended more than ``EXPORT_KEEP_DAYS`` ago."""
    purged = trash.trash_purge_expired()
    expired = export_jobs.export_jobs_expire()
    return f"purged {purged} conversation(s) from the trash; deleted {expired} export job(s)"


@shared_task(acks_late=True, reject_on_worker_lost=True)
def export_job_execute(job_id: str) -> str:
    """Write the file of an ExportJob."""
    return export_jobs.export_job_execute(job_id=uuid.UUID(job_id))


@shared_task(acks_late=True, reject_on_worker_lost=True)
def import_job_execute(job_id: str) -> str:
    """Import the file of an ImportJob."""
    return import_jobs.import_job_execute(job_id=uuid.UUID(job_id))


# --- Without a broker (make run): the same services in a few threads of the web process,
# so that a request answers at once, as with a worker, and the page follows the job.

_BACKGROUND = ThreadPoolExecutor(max_workers=2, thread_name_prefix="umf-task")


def run_in_background(task_name: str, object_id: uuid.UUID) -> None:
    """Run the task ``task_name`` (its dotted name) for the row ``object_id`` in a
    background thread of this process; a failure is logged and left on the row."""
    _BACKGROUND.submit(_run_in_background, task_name, object_id)


def _run_in_background(task_name: str, object_id: uuid.UUID) -> None:
    close_old_connections()
    try:
        if task_name == replay_run_execute.name:
            # The worker's retry policy, by sleeping: the run says when to try again.
            while (outcome := replays.replay_execute(run_id=object_id)).retry_in is not None:
                time.sleep(outcome.retry_in)
        elif task_name == import_job_execute.name:
            import_jobs.import_job_execute(job_id=object_id)
        elif task_name == export_job_execute.name:
            export_jobs.export_job_execute(job_id=object_id)
        else:
            raise ValueError(f"no background runner for {task_name}")
    except Exception:
        logger.exception("background task %s %s failed", task_name, object_id)
    finally:
        connection.close()

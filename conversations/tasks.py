"""Celery tasks: take ids, call one service, return a short summary.

Task messages are JSON (settings), acknowledged late and rejected when the worker dies,
so a crash hands the task to another worker; the services make a second delivery
harmless (row claims with a lease, unique turns).
"""

from __future__ import annotations

import uuid

from celery import shared_task

from conversations.services import import_jobs, replays, uploads


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def replay_run_execute(self, run_id: str) -> str:  # type: ignore[no-untyped-def]
    """Execute a replay run; retry later when the service says so."""
    outcome = replays.replay_execute(run_id=uuid.UUID(run_id))
    if outcome.retry_in is not None:
        raise self.retry(countdown=outcome.retry_in)
    return outcome.summary


@shared_task
def replay_reconcile() -> str:
    """Periodic (beat): re-enqueue the replay runs and import jobs that were lost or
    whose worker vanished (import jobs claimed too often are ended as failed), and sweep
    the uploads no job will read."""
    runs = replays.replay_reconcile()
    jobs = import_jobs.import_job_reconcile()
    swept = uploads.uploads_sweep()
    return f"re-enqueued {runs} run(s) and {jobs} import job(s); swept {swept} upload(s)"


@shared_task(acks_late=True, reject_on_worker_lost=True)
def import_job_execute(job_id: str) -> str:
    """Import the file of an ImportJob."""
    return import_jobs.import_job_execute(job_id=uuid.UUID(job_id))

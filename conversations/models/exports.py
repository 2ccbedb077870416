"""Exports of many conversations at once, written in the background."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from conversations.models.archive import uuid7
from conversations.models.imports import ImportJob, Upload


class ExportJob(models.Model):
    """Conversations written out in a format as one file (a file of many, or a zip of one
    file per conversation), by a worker, with progress. The file is kept in PostgreSQL as
    an ``Upload`` (chunks), so that the web process of any host serves it, only to its
    owner; it is deleted with the job (after ``EXPORT_KEEP_DAYS``)."""

    # An import job's four states: queued -> running -> succeeded | failed.
    Status = ImportJob.Status

    id = models.UUIDField(primary_key=True, default=uuid7, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="export_jobs"
    )
    format = models.CharField(max_length=40)
    # What to export: {"ids": [...]} or {"filters": {...}} (the list's filters, as the
    # selector takes them, dates as ISO 8601 text); {"filters": {}} is the whole archive.
    selection = models.JSONField(default=dict)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    warning_count = models.PositiveIntegerField(default=0)
    # What the format could not hold: counts by category and the first few warnings
    # (export_files.Tally), for the job page and the API.
    warnings = models.JSONField(default=dict, blank=True)
    filename = models.CharField(max_length=255, blank=True)
    file = models.OneToOneField(
        Upload, null=True, blank=True, on_delete=models.SET_NULL, related_name="export_job"
    )
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # Until then a worker holds the job (running) or its task should have started
    # (queued); past it, the reconciler sends it again or ends it (services.export_jobs).
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The reconciler: unfinished jobs whose lease has passed.
            models.Index(fields=["status", "lease_expires_at"], name="export_job_status_lease"),
        ]

    def __str__(self) -> str:
        return f"export as {self.format} ({self.status})"

"""Background imports of files of conversations."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from conversations.models.archive import Conversation, uuid7


class Upload(models.Model):
    """A file uploaded for an import, kept in PostgreSQL in chunks (UploadChunk) so that a
    worker on any host can read it: the database is the only thing web and workers share.
    Deleted when its job ends; swept when abandoned (services.uploads)."""

    id = models.UUIDField(primary_key=True, default=uuid7, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="uploads"
    )
    # The bytes stored (while it arrives, the bytes announced: they count for the quota).
    size = models.PositiveBigIntegerField(default=0)
    # Every chunk holds this many bytes but the last.
    chunk_bytes = models.PositiveIntegerField()
    complete = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"upload {self.id} ({self.size} bytes)"


class UploadChunk(models.Model):
    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [
            # Also the index of a reader's lookup by (upload, index).
            models.UniqueConstraint(fields=["upload", "index"], name="upload_chunk_unique_index")
        ]

    def __str__(self) -> str:
        return f"chunk {self.index} of {self.upload_id}"


class ImportJob(models.Model):
    """A file of conversations imported in the background, with progress and a result
    per conversation (ImportItem)."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid7, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="import_jobs"
    )
    requested_format = models.CharField(max_length=40, default="auto")
    format = models.CharField(max_length=40, blank=True)
    filename = models.CharField(max_length=255)
    upload = models.OneToOneField(
        Upload, null=True, blank=True, on_delete=models.SET_NULL, related_name="job"
    )
    size = models.PositiveBigIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    processed = models.PositiveIntegerField(default=0)
    created = models.PositiveIntegerField(default=0)
    updated = models.PositiveIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    # How many times a worker claimed the job; the claim's number fences off a worker
    # that lost the job (see services.import_jobs).
    attempts = models.PositiveIntegerField(default=0)
    # Until then a worker holds the job (running) or its task should have started
    # (queued); past it, the reconciler runs the job again or ends it.
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    # The client's Idempotency-Key: its retry of the upload gets this job back.
    idempotency_key = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The reconciler: unfinished jobs whose lease has passed.
            models.Index(fields=["status", "lease_expires_at"], name="import_job_status_lease"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="import_job_idempotency_key",
            )
        ]

    def __str__(self) -> str:
        return f"import {self.filename} ({self.status})"


class ImportItem(models.Model):
    class Status(models.TextChoices):
        CREATED = "created"
        UPDATED = "updated"
        UNCHANGED = "unchanged"
        FAILED = "failed"

    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="items")
    index = models.PositiveIntegerField()
    key = models.CharField(max_length=200, null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices)
    conversation = models.ForeignKey(
        Conversation, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    title = models.CharField(max_length=300, blank=True)
    added_messages = models.PositiveIntegerField(default=0)
    warning_count = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    field = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="import_item_unique_index")
        ]

    def __str__(self) -> str:
        return f"item {self.index} of {self.job_id} ({self.status})"

"""Replay runs and their turns."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

from conversations.models.archive import Conversation, JSONField, Message, uuid7


class ReplayRun(models.Model):
    """One replay of a conversation against a provider and model: the row is the truth
    about where the job is (queued -> running -> succeeded | failed)."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    class Mode(models.TextChoices):
        LAST = "last"
        EACH = "each"

    id = models.UUIDField(primary_key=True, default=uuid7, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="replay_runs"
    )
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="replay_runs"
    )
    provider = models.CharField(max_length=100)
    model = models.CharField(max_length=200)
    parameters = JSONField(default=dict, blank=True)
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.LAST)
    from_message = models.ForeignKey(
        Message, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveIntegerField(default=0)
    provider_calls = models.PositiveIntegerField(default=0)
    # A worker holds the run until then; past it, the reconciler hands the run to another.
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    usage = JSONField(null=True, blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    # The client's Idempotency-Key: its retry of the request gets this run back.
    idempotency_key = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="replay_idempotency_key",
            )
        ]
        indexes = [
            # GET replays/?conversation=: one owner's runs of one conversation.
            models.Index(fields=["owner", "conversation", "-created_at"], name="replay_owner_conv"),
            # The reconciler: unfinished runs whose lease or retry time has passed.
            models.Index(fields=["status", "lease_expires_at"], name="replay_status_lease"),
        ]

    def __str__(self) -> str:
        return f"replay {self.id} ({self.provider}/{self.model}, {self.status})"


class ReplayTurn(models.Model):
    """One provider call of a run: regenerating one assistant turn from its prefix.
    Unique per run and index, so a redelivered task finds what already succeeded."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    run = models.ForeignKey(ReplayRun, on_delete=models.CASCADE, related_name="turns")
    index = models.PositiveIntegerField()
    original_message = models.ForeignKey(
        Message, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    message = models.OneToOneField(
        Message, null=True, blank=True, on_delete=models.SET_NULL, related_name="replay_turn"
    )
    # The request as sent: whole, or (request None) as ``request_delta`` from the request
    # of ``request_base``, the turn before it (mode each: each prefix extends the last);
    # rebuilt where shown, see conversations.replay_requests.
    request = JSONField(null=True, blank=True)
    request_base = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    request_delta = JSONField(null=True, blank=True)
    request_headers = JSONField(null=True, blank=True)
    response = JSONField(null=True, blank=True)
    usage = JSONField(null=True, blank=True)
    finish_reason = models.CharField(max_length=20, blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    # The request rebuilt whole (from request, or its base's and request_delta), where the
    # selectors set it for a page or the API to show; never a column.
    sent_request: Any = None

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["run", "index"], name="replay_turn_unique_index")
        ]
        ordering = ["run", "index"]

    def __str__(self) -> str:
        return f"turn {self.index} of {self.run_id} ({self.status})"

"""Replays: a run to start, a run and its turns; and the providers a run can call."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from conversations import models
from conversations.api.serializers.common import StrictCharField


class ReplayInput(serializers.Serializer[Any]):
    provider = StrictCharField(max_length=100)
    model = StrictCharField(max_length=200)
    parameters = serializers.DictField(required=False, default=dict)
    mode = serializers.ChoiceField(choices=models.ReplayRun.Mode.choices, default="last")
    from_message = serializers.UUIDField(required=False, allow_null=True, default=None)


class ReplayTurnOutput(serializers.ModelSerializer[models.ReplayTurn]):
    # Stored as a delta from the turn before (mode each); the selectors rebuild it whole.
    request = serializers.JSONField(source="sent_request", read_only=True, allow_null=True)

    class Meta:
        model = models.ReplayTurn
        fields = [
            "index",
            "original_message",
            "status",
            "attempts",
            "message",
            "usage",
            "finish_reason",
            "latency_ms",
            "error",
            "request",
            "finished_at",
        ]


class ReplayRunOutput(serializers.ModelSerializer[models.ReplayRun]):
    turns = ReplayTurnOutput(many=True, read_only=True)

    class Meta:
        model = models.ReplayRun
        fields = [
            "id",
            "conversation",
            "provider",
            "model",
            "parameters",
            "mode",
            "from_message",
            "status",
            "attempts",
            "provider_calls",
            "error",
            "usage",
            "latency_ms",
            "created_at",
            "started_at",
            "finished_at",
            "turns",
        ]


class ReplayTurnSummaryOutput(ReplayTurnOutput):
    """A turn in a list of runs: without the request it sent, which can be as large as the
    conversation (a list of 200 runs of 50 turns would rebuild 10,000 of them); the run's
    own page, ``GET replays/{id}``, gives it."""

    class Meta(ReplayTurnOutput.Meta):
        fields = [name for name in ReplayTurnOutput.Meta.fields if name != "request"]


class ReplayRunSummaryOutput(ReplayRunOutput):
    turns = ReplayTurnSummaryOutput(many=True, read_only=True)


class ProviderOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    kind = serializers.CharField()
    models = serializers.ListField(child=serializers.CharField())
    streaming = serializers.BooleanField()

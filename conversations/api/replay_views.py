"""Replay endpoints: start a run (202), read runs, list the providers that can be called."""

from __future__ import annotations

import uuid
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations import models
from conversations.api.errors import error_response, idempotency_key
from conversations.api.serializers import StrictCharField
from conversations.api.throttles import WriteRateThrottle
from conversations.api.views import _owned_conversation, current_user
from conversations.provider_settings import configured_providers, public_description
from conversations.services import replays

MAX_LISTED_RUNS = 200


class ReplayInput(serializers.Serializer[Any]):
    provider = StrictCharField(max_length=100)
    model = StrictCharField(max_length=200)
    parameters = serializers.DictField(required=False, default=dict)
    mode = serializers.ChoiceField(choices=models.ReplayRun.Mode.choices, default="last")
    from_message = serializers.UUIDField(required=False, allow_null=True, default=None)


class ReplayTurnOutput(serializers.ModelSerializer[models.ReplayTurn]):
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


class ReplayStartView(APIView):
    throttle_classes = [WriteRateThrottle]
    throttle_scope = "replays"

    @extend_schema(
        request=ReplayInput, responses={202: ReplayRunOutput}, summary="Replay a conversation"
    )
    def post(self, request: Request, pk: str) -> Response:
        conversation = _owned_conversation(request, pk)
        data = ReplayInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            run = replays.replay_start(
                owner=current_user(request),
                conversation=conversation,
                idempotency_key=idempotency_key(request),
                **data.validated_data,
            )
        except replays.ReplayRequestError as error:
            code = "replay_budget_spent" if error.status == 429 else "invalid_replay"
            response = error_response(error.status, code, error.message, error.field)
            if error.retry_after is not None:
                response["Retry-After"] = str(error.retry_after)
            return response
        run = models.ReplayRun.objects.prefetch_related("turns").get(pk=run.pk)
        return Response(ReplayRunOutput(run).data, status=status.HTTP_202_ACCEPTED)


def _owned_runs(request: Request) -> Any:
    return models.ReplayRun.objects.filter(owner=current_user(request)).prefetch_related("turns")


class ReplayDetailView(APIView):
    @extend_schema(responses=ReplayRunOutput, summary="A replay run and its turns")
    def get(self, request: Request, pk: str) -> Response:
        try:
            run = _owned_runs(request).get(pk=uuid.UUID(pk))
        except ValueError:
            raise models.ReplayRun.DoesNotExist from None
        return Response(ReplayRunOutput(run).data)


class ReplayListView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("conversation", uuid.UUID, required=False)],
        responses=ReplayRunOutput(many=True),
        summary="Your replay runs, newest first (of one conversation with ?conversation=)",
    )
    def get(self, request: Request) -> Response:
        runs = _owned_runs(request)
        conversation = request.query_params.get("conversation")
        if conversation is not None:
            try:
                runs = runs.filter(conversation_id=uuid.UUID(conversation))
            except ValueError:
                return error_response(400, "invalid", "not a conversation id", "conversation")
        return Response(ReplayRunOutput(runs[:MAX_LISTED_RUNS], many=True).data)


class ProviderOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    kind = serializers.CharField()
    models = serializers.ListField(child=serializers.CharField())
    streaming = serializers.BooleanField()


class ProviderListView(APIView):
    @extend_schema(
        responses=ProviderOutput(many=True),
        summary="The providers this server can call, and their models",
    )
    def get(self, request: Request) -> Response:
        return Response([public_description(c) for c in configured_providers().values()])

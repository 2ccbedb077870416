"""Replay endpoints: start a run (202), read runs, list the providers that can be called."""

from __future__ import annotations

import uuid

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations import selectors
from conversations.api.errors import error_response, idempotency_key
from conversations.api.serializers.replays import (
    ProviderOutput,
    ReplayInput,
    ReplayRunOutput,
    ReplayRunSummaryOutput,
)
from conversations.api.throttles import WriteRateThrottle
from conversations.ownership import current_user, owned_conversation, owned_replay_run
from conversations.provider_settings import configured_providers, public_description
from conversations.services import replays

MAX_LISTED_RUNS = 200


class ReplayStartView(APIView):
    throttle_classes = [WriteRateThrottle]
    throttle_scope = "replays"

    @extend_schema(
        request=ReplayInput, responses={202: ReplayRunOutput}, summary="Replay a conversation"
    )
    def post(self, request: Request, pk: str) -> Response:
        conversation = owned_conversation(request, pk)
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
        run = selectors.replay_run_detail(owner=current_user(request), run_id=run.pk)
        return Response(ReplayRunOutput(run).data, status=status.HTTP_202_ACCEPTED)


class ReplayDetailView(APIView):
    @extend_schema(responses=ReplayRunOutput, summary="A replay run and its turns")
    def get(self, request: Request, pk: str) -> Response:
        return Response(ReplayRunOutput(owned_replay_run(request, pk)).data)


class ReplayListView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("conversation", uuid.UUID, required=False)],
        responses=ReplayRunSummaryOutput(many=True),
        summary=(
            "Your replay runs, newest first (of one conversation with ?conversation=);"
            " each turn's request is on the run's own page"
        ),
    )
    def get(self, request: Request) -> Response:
        conversation = request.query_params.get("conversation")
        try:
            conversation_id = None if conversation is None else uuid.UUID(conversation)
        except ValueError:
            return error_response(400, "invalid", "not a conversation id", "conversation")
        runs = selectors.replay_run_list(
            owner=current_user(request), conversation_id=conversation_id, limit=MAX_LISTED_RUNS
        )
        return Response(ReplayRunSummaryOutput(runs, many=True).data)


class ProviderListView(APIView):
    @extend_schema(
        responses=ProviderOutput(many=True),
        summary="The providers this server can call, and their models",
    )
    def get(self, request: Request) -> Response:
        return Response([public_description(c) for c in configured_providers().values()])

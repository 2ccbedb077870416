"""API views: each parses its input, calls one service or selector, shapes the output."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict
from typing import Any

import orjson
from django.conf import settings
from django.http import HttpResponseBase, StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from conversations import selectors, services
from conversations.api.errors import error_response, exception_handler, format_error_response
from conversations.api.filters import ConversationFilter
from conversations.api.serializers.conversations import (
    IMPORT_BATCH_SCHEMA,
    ConversationDetail,
    ConversationPage,
    ConversationSummary,
    ExportOutput,
    ExportQuery,
    ImportBatchOutput,
    ImportInput,
    ImportOutput,
)
from conversations.api.serializers.formats import ConvertInput, ConvertOutput, FormatOutput
from conversations.api.throttles import WriteRateThrottle
from conversations.ownership import current_user, owned_conversation
from providers import formats

BATCH_LIMIT = 100


def _warnings(warnings: list[Any]) -> list[dict[str, Any]]:
    return [w.model_dump(mode="json") for w in warnings]


class FormatListView(APIView):
    @extend_schema(responses=FormatOutput(many=True), summary="The supported formats")
    def get(self, request: Request) -> Response:
        data = []
        for fmt in formats.all_formats():
            capabilities = {
                key: sorted(value) if isinstance(value, frozenset) else value
                for key, value in asdict(fmt.capabilities).items()
            }
            data.append(
                {
                    "id": fmt.id,
                    "label": fmt.label,
                    "kind": fmt.kind,
                    "provider": fmt.provider,
                    "capabilities": capabilities,
                }
            )
        return Response(data)


def _import_one(request: Request, body: Any) -> tuple[int, dict[str, Any]]:
    """Run one import; returns the HTTP status and body (errors in the API's shape)."""
    serializer = ImportInput(data=body)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    format_id, results = services.conversation_import(
        owner=current_user(request),
        format_id=data["format"],
        payload=data["payload"],
        title=data.get("title") or None,
    )
    created = any(result.created for result in results)
    return (
        status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        {
            "format": format_id,
            "conversations": [
                {
                    "id": result.conversation.id,
                    "title": result.conversation.title,
                    "format": result.conversation.source_format,
                    "created": result.created,
                    "warnings": _warnings(result.warnings),
                }
                for result in results
            ],
        },
    )


class ImportView(APIView):
    throttle_classes = [WriteRateThrottle]
    throttle_scope = "imports"

    @extend_schema(
        request=ImportInput,
        responses={201: ImportOutput, 200: ImportOutput},
        summary="Import a payload (201 new, 200 already archived)",
    )
    def post(self, request: Request) -> Response:
        code, body = _import_one(request, request.data)
        return Response(body, status=code)


class ImportBatchView(APIView):
    throttle_classes = [WriteRateThrottle]
    throttle_scope = "imports"

    @extend_schema(
        request={"application/json": IMPORT_BATCH_SCHEMA},
        responses={207: ImportBatchOutput},
        summary="Import several payloads; each succeeds or fails on its own",
    )
    def post(self, request: Request) -> Response:
        items = request.data
        if not isinstance(items, list):
            return error_response(400, "invalid", "expected a list of import bodies", "body")
        if len(items) > BATCH_LIMIT:
            return error_response(
                413, "too_large", f"at most {BATCH_LIMIT} items per batch", "body"
            )
        results = []
        for index, item in enumerate(items):
            try:
                code, body = _import_one(request, item)
            except formats.FormatError as error:
                response = format_error_response(error)
                code, body = response.status_code, response.data
            except ValidationError as error:
                handled = exception_handler(error, {})
                assert handled is not None  # the handler answers every ValidationError
                code, body = handled.status_code, handled.data
            results.append({"index": index, "status": code, **body})
        return Response({"results": results}, status=207)


class UnknownCursor(APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "invalid_cursor"
    default_detail = "not a cursor this API gave out"
    field = "cursor"


class ConversationPagination(CursorPagination):
    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = settings.API_MAX_PAGE_SIZE

    def decode_cursor(self, request: Request) -> Any:
        # DRF answers a cursor it cannot read with 404; it is a malformed parameter.
        try:
            return super().decode_cursor(request)
        except NotFound:
            # Well-formed but unknown: the schema cannot tell a cursor from any string.
            raise UnknownCursor() from None


class ConversationListView(APIView):
    more_error_statuses = ("422",)  # an unknown cursor

    @extend_schema(
        parameters=[ConversationFilter.schema_parameters()],
        responses=ConversationPage,
        operation_id="v1_conversations_list",
        summary="List, filter and search your conversations",
    )
    def get(self, request: Request) -> Response:
        params = ConversationFilter(data=request.query_params)
        params.is_valid(raise_exception=True)
        queryset = selectors.conversation_list(
            owner=current_user(request), **params.selector_kwargs()
        )
        paginator = ConversationPagination()
        page = paginator.paginate_queryset(queryset, request, view=self)
        return paginator.get_paginated_response(ConversationSummary(page, many=True).data)


class ConversationDetailView(APIView):
    @extend_schema(responses=ConversationDetail, summary="A conversation, in UMF")
    def get(self, request: Request, pk: str) -> Response:
        conversation = owned_conversation(request, pk)
        # A long conversation holds its first messages inline, and says so.
        truncated = selectors.conversation_is_long(conversation=conversation)
        first = settings.UMF_DETAIL_MAX_INLINE_MESSAGES if truncated else None
        stored = selectors.conversation_umf(conversation=conversation, first=first)
        context = {
            "stored": stored,
            "truncated": truncated,
            "messages_url": request.build_absolute_uri(
                reverse("api-messages", args=[conversation.pk])
            ),
        }
        return Response(ConversationDetail(conversation, context=context).data)

    @extend_schema(
        responses={204: None},
        summary="Delete a conversation: it goes to the trash (see trash/restore)",
    )
    def delete(self, request: Request, pk: str) -> Response:
        conversation = owned_conversation(request, pk)
        services.conversations_trash(owner=current_user(request), ids=[conversation.pk])
        return Response(status=status.HTTP_204_NO_CONTENT)


class ExportView(APIView):
    @extend_schema(
        parameters=[ExportQuery],
        responses=ExportOutput,
        summary="Export a conversation in any format, with what the target could not hold",
        description="A conversation longer than UMF_DETAIL_MAX_INLINE_MESSAGES exported to a "
        "format that can stream (umf) is streamed: the same JSON, written a message at a time.",
    )
    def get(self, request: Request, pk: str) -> HttpResponseBase:
        query = ExportQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        conversation = owned_conversation(request, pk)
        target = formats.get(query.validated_data["format"])
        rendered = selectors.conversation_export_or_stream(conversation=conversation, target=target)
        if not isinstance(rendered, formats.Rendered):  # long, in a format that streams
            return StreamingHttpResponse(
                _export_envelope(target.id, rendered), content_type="application/json"
            )
        return Response(
            {
                "format": target.id,
                "payload": rendered.payload,
                "warnings": _warnings(rendered.warnings),
            }
        )


def _export_envelope(format_id: str, payload: Iterator[bytes]) -> Iterator[bytes]:
    """The export's answer around a streamed payload (which has no warnings)."""
    yield b'{"format":' + orjson.dumps(format_id) + b',"payload":'
    yield from payload
    yield b',"warnings":[]}'


class ConvertView(APIView):
    @extend_schema(
        request=ConvertInput,
        responses=ConvertOutput,
        summary="Convert a payload between formats without storing anything",
    )
    def post(self, request: Request) -> Response:
        serializer = ConvertInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        converted = formats.convert(data["from"], data["to"], data["payload"])
        return Response(
            {
                "from": converted.source.id,
                "to": converted.target.id,
                "payload": converted.payload,
                "warnings": _warnings(converted.warnings),
            }
        )

"""One error shape for the whole API: ``{"error": {"code", "message", "field"}}``.

400 malformed request, 401/403 authentication, 404 not yours or not there, 413 too large,
422 valid JSON that is not the named format. Never a 5xx for bad input; the 5xx there
are (503 when a dependency is down, 500 for a bug) come in the same shape.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from conversations.services.enqueue import QueueUnavailable
from conversations.services.trash import NotFound as ConversationsNotFound
from conversations.services.uploads import UploadQuotaExceeded
from providers.formats import FormatDetectionError, FormatError

logger = logging.getLogger(__name__)


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"
    default_detail = "request body too large"

    def __init__(self, detail: str | None = None, field: str = "body") -> None:
        super().__init__(detail)
        self.field = field


# Errors about the request body as a whole.
BODY_ERRORS = (exceptions.ParseError, exceptions.UnsupportedMediaType, PayloadTooLarge)


def error_response(
    status_code: int, code: str, message: str, field: str | None = None, **more: Any
) -> Response:
    """A response in the API's error shape."""
    return Response(
        {"error": {"code": code, "message": message, "field": field, **more}}, status=status_code
    )


def format_error_response(error: FormatError) -> Response:
    """422 for a payload that is not the format it claims (or that auto cannot place)."""
    more = {}
    if isinstance(error, FormatDetectionError):
        more["candidates"] = error.candidates
    return error_response(422, "invalid_payload", error.message, error.field, **more)


def _first_validation_error(detail: Any, prefix: str = "") -> tuple[str | None, str, str]:
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int):  # a list field's item: ids[0]
                name = f"{prefix}[{key}]"
            else:
                name = f"{prefix}.{key}" if prefix else str(key)
            # An error about the whole object names the object (the body at the top).
            field = (prefix or "body") if key == "non_field_errors" else name
            inner_field, message, code = _first_validation_error(value, name)
            return (inner_field if inner_field is not None else field), message, code
    if isinstance(detail, list) and detail:
        if any(isinstance(item, dict | list) for item in detail):
            for index, item in enumerate(detail):
                if item:
                    return _first_validation_error(item, f"{prefix}[{index}]")
        return _first_validation_error(detail[0], prefix)
    code = getattr(detail, "code", "invalid")
    return None, str(detail), str(code)


IDEMPOTENCY_HEADER = "Idempotency-Key"


def idempotency_key(request: Any) -> str:
    """The request's ``Idempotency-Key`` ("" without one); a ValidationError naming the
    header when it is not 1-200 visible ASCII characters."""
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return ""
    if not 0 < len(key) <= 200 or not all(" " < char <= "~" for char in key):
        raise exceptions.ValidationError(
            {IDEMPOTENCY_HEADER: "must be 1 to 200 visible ASCII characters"}
        )
    return str(key)


def _unavailable(exc: Exception) -> Response | None:
    """503 for a dependency that is down: the broker (naming the row that waits for it)
    or the database."""
    if isinstance(exc, QueueUnavailable):
        response = error_response(
            503,
            "queue_unavailable",
            f"{exc}; the reconciler sends it once the queue is back (retry with the same "
            f"{IDEMPOTENCY_HEADER} to get it back)",
            None,
            id=str(exc.object_id),
            kind=exc.kind,
        )
        response["Retry-After"] = "60"
        return response
    if isinstance(exc, OperationalError | InterfaceError):
        logger.warning("database unavailable: %s", exc)
        response = error_response(503, "database_unavailable", "the database cannot be reached")
        response["Retry-After"] = "5"
        return response
    return None


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler that answers every error in the API's error shape."""
    unavailable = _unavailable(exc)
    if unavailable is not None:
        return unavailable
    if isinstance(exc, FormatError):
        return format_error_response(exc)
    if isinstance(exc, UploadQuotaExceeded):
        return error_response(413, "quota_exceeded", exc.message, "file")
    if isinstance(exc, ConversationsNotFound):
        # Ids in a body: not yours, never made, or not where the action wants them alike.
        return error_response(422, "unknown_ids", exc.message, "ids", ids=exc.missing)
    if isinstance(exc, ObjectDoesNotExist | Http404):
        return error_response(404, "not_found", "not found")
    if isinstance(exc, exceptions.ValidationError):
        field, message, error_code = _first_validation_error(exc.detail)
        return error_response(400, error_code or "invalid", message, field, details=exc.detail)
    handled = drf_exception_handler(exc, context)
    if handled is None:
        view = type(context.get("view")).__name__
        logger.error("unhandled error in %s", view, exc_info=exc)
        return error_response(500, "server_error", "an unexpected error; it has been logged")
    detail = handled.data.get("detail", "") if isinstance(handled.data, dict) else ""
    code = getattr(detail, "code", None) or getattr(exc, "default_code", "error")
    field = getattr(exc, "field", None)
    if field is None and isinstance(exc, BODY_ERRORS):
        field = "body"
    handled.data = {"error": {"code": str(code), "message": str(detail), "field": field}}
    return handled

"""JSON request parsing: strict JSON (:mod:`conversations.json_input`), a size cap (413)
and clear errors (400 naming the body, or the path of a duplicate key)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser

from conversations import json_input
from conversations.api.errors import PayloadTooLarge


class UnstorableText(APIException):
    """Valid JSON the archive cannot hold (PostgreSQL text refuses NUL; an integer beyond
    64 bits would not come back as it was): 422, like a payload that is not its format."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "nul_character"

    def __init__(self, error: json_input.JsonError) -> None:
        super().__init__(error.message, code=error.code)
        self.field = error.path or "body"


UNSTORABLE = {"nul_character", "integer_out_of_range"}


class JsonParseError(ParseError):
    def __init__(self, error: json_input.JsonError) -> None:
        super().__init__(error.message, code=error.code)
        self.field = error.path or "body"


def check_size(request: Any) -> None:
    """Refuse a body larger than ``MAX_REQUEST_BYTES`` before reading it."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > settings.MAX_REQUEST_BYTES:
        raise PayloadTooLarge(
            f"request body is {length} bytes; the limit is {settings.MAX_REQUEST_BYTES}"
        )


class OrjsonParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        if parser_context and "request" in parser_context:
            check_size(parser_context["request"])
        raw = stream.read(settings.MAX_REQUEST_BYTES + 1) if stream is not None else b""
        if len(raw) > settings.MAX_REQUEST_BYTES:
            raise PayloadTooLarge(f"request body is over {settings.MAX_REQUEST_BYTES} bytes")
        try:
            return json_input.loads(raw, max_objects=settings.UMF_MAX_REQUEST_OBJECTS)
        except json_input.JsonError as error:
            if error.code in UNSTORABLE:
                raise UnstorableText(error) from None
            if error.code in ("too_large", "too_many_objects"):
                raise PayloadTooLarge(error.message, field=error.path or "body") from None
            raise JsonParseError(error) from None

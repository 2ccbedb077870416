"""JSON request parsing with orjson, a size cap (413) and clear errors (400)."""

from __future__ import annotations

from typing import Any

import orjson
from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from conversations.api.errors import PayloadTooLarge


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
            return orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            raise ParseError(f"malformed JSON: {error}") from None

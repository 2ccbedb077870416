"""``IRChatResponse`` <-> the answer message.

The response's message becomes an assistant message with the finish reason, the usage
(``raw`` keeps the IRUsage) and, from the response metadata, its id
(``providerResponseId``) and time. The metadata object itself is kept verbatim on the
message (``$response_metadata``); ``raw`` and fields the IR does not define are kept in the
``$response`` hint.
"""

from __future__ import annotations

from typing import Any

from providers.formats._common import refuse_reserved_names, require_mapping
from providers.formats.base import FormatError
from providers.umf import JSON, Message, Metadata

from ._messages import parse_message
from ._metadata import parse_finish_reason, parse_metadata, parse_usage, render_usage
from ._render_messages import render_message
from ._shared import FORMAT_ID, RenderContext, at, get_hint
from ._stream import finish_reason

RESPONSE_KEYS = ("message", "finishReason", "usage", "metadata")


def parse_response(raw: JSON, path: str) -> tuple[Message, Metadata]:
    """The answer of a response, and the response metadata as UMF metadata."""
    body = require_mapping(raw, path or "payload")
    answer = parse_message(body.get("message"), at(path, "message"))
    if answer.role != "assistant":
        raise FormatError("a response message is the assistant's", field=at(path, "message.role"))
    answer.finish_reason = parse_finish_reason(body.get("finishReason"), at(path, "finishReason"))
    if body.get("usage") is not None:
        answer.usage = parse_usage(body["usage"], at(path, "usage"))
    metadata = parse_metadata(body.get("metadata"), at(path, "metadata"))
    answer.id = metadata.provider_response_id
    answer.timestamp = metadata.timestamp
    if body.get("raw") is not None:
        require_mapping(body["raw"], at(path, "raw"))
    rest = {k: v for k, v in body.items() if k not in RESPONSE_KEYS or (k == "usage" and v is None)}
    refuse_reserved_names(rest, path)
    hints = {"$response_metadata": body["metadata"], "$response": rest or None}
    own = answer.extra.setdefault(FORMAT_ID, {})
    own.update({key: value for key, value in hints.items() if value is not None})
    return answer, metadata


def render_response(
    answer: Message, index: int, metadata: dict[str, Any], ctx: RenderContext
) -> dict[str, Any]:
    """An ``IRChatResponse`` for the answer (UMF message ``index``) with ``metadata``."""
    message = render_message(answer, index, ctx)
    body: dict[str, Any] = {"message": message, "finishReason": finish_reason(answer, index, ctx)}
    if answer.usage is not None:
        body["usage"] = render_usage(answer.usage)
    body["metadata"] = metadata
    body.update(get_hint(answer.extra, "response", {}))
    return body

"""How sure ``bedrock-converse`` is that a payload is its own (see :class:`Format`).

Converse content blocks are tagged unions (``{"text": ...}``, ``{"toolUse": {...}}``) with
no ``type`` field, and its request members are camelCase (``modelId``, ``inferenceConfig``,
``toolConfig``): no other format shares these, so they score 2. A message list whose blocks
are all of unknown members merely fits (1); anything with a ``type`` field on a block, string
content or another API's request fields is not Converse (0).
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.detect import score_messages
from providers.formats.bedrock_converse._constants import (
    CONTENT_MEMBERS,
    OTHER_REQUEST_MEMBERS,
    REQUEST_MEMBERS,
)
from providers.umf import JSON

_DISTINCT_REQUEST_MEMBERS = (REQUEST_MEMBERS | OTHER_REQUEST_MEMBERS) - {"messages", "system"}
_ROLES = ("user", "assistant", "system")


def detect(payload: JSON) -> int:
    """0 (not mine), 1 (fits) or 2 (surely Converse)."""
    if isinstance(payload, list):
        return score_messages(payload, _score_message)
    if not isinstance(payload, dict):
        return 0
    if "request" in payload and "response" in payload:
        return 2 if detect(payload["request"]) and _is_response(payload["response"]) else 0
    if "output" in payload:
        return 2 if _is_response(payload) else 0
    return _score_request(payload)


def _score_request(payload: dict[str, Any]) -> int:
    if not isinstance(payload.get("messages"), list):
        return 0
    if set(payload) - REQUEST_MEMBERS - OTHER_REQUEST_MEMBERS:
        return 0
    system = payload.get("system")
    if system is not None and _score_blocks(system) == 0:
        return 0
    score = score_messages(payload["messages"], _score_message) if payload["messages"] else 1
    if score and (_DISTINCT_REQUEST_MEMBERS & payload.keys() or _score_blocks(system) == 2):
        return 2
    return score


def _is_response(payload: JSON) -> bool:
    if not isinstance(payload, dict) or not isinstance(payload.get("output"), dict):
        return False
    message = payload["output"].get("message")
    return _score_message(message) > 0 and message.get("role") == "assistant"


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict) or message.get("role") not in _ROLES:
        return 0
    if "content" not in message:
        return 0
    return _score_blocks(message["content"]) or (1 if message["content"] == [] else 0)


def _score_blocks(blocks: JSON) -> int:
    """2 when every block is a one-member union and one names a Converse member, 1 when
    they are unions of members this version does not know, else 0."""
    if not isinstance(blocks, list) or not blocks:
        return 0
    for block in blocks:
        if not isinstance(block, dict) or len(block) != 1 or "type" in block:
            return 0
    return 2 if any(next(iter(block)) in CONTENT_MEMBERS for block in blocks) else 1

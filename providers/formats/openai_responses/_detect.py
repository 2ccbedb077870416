"""How sure ``openai-responses`` is that a payload is its own (see :class:`Format`).

2 for the Responses API's distinctive marks: a ``response`` object, a request body with
``input``, items whose ``type`` only the Responses API has (``function_call``,
``reasoning``, ``message``...), parts typed ``input_text`` / ``output_text`` /
``input_image`` / ``input_file``. 1 for a list of plain role/content text messages (which
many chat APIs share); 0 when anything in it is not Responses.
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.detect import score_content, score_messages, typed_block_score
from providers.umf import JSON

from ._constants import ITEM_TYPES, MESSAGE_ROLES, PART_TYPES
from ._parse import is_response

# Chat Completions has refusal parts too: the other part types are the Responses API's own.
_score_part = typed_block_score(PART_TYPES, frozenset(PART_TYPES) - {"refusal"})


def detect(payload: JSON) -> int:
    """0 (not mine), 1 (fits) or 2 (surely the Responses API)."""
    if isinstance(payload, list):
        return score_messages(payload, _score_item)
    if not isinstance(payload, dict):
        return 0
    if isinstance(payload.get("request"), dict) and isinstance(payload.get("response"), dict):
        response = payload["response"]
        return 2 if detect(payload["request"]) and response.get("object") == "response" else 0
    if payload.get("object") == "response":
        return 2 if is_response(payload) and isinstance(payload.get("output"), list) else 0
    if "input" not in payload or {"messages", "contents"} & payload.keys():
        return 0
    request_input = payload["input"]
    if isinstance(request_input, str) or request_input == []:
        return 2
    return 2 if score_messages(request_input, _score_item) else 0


def _score_item(entry: JSON) -> int:
    if not isinstance(entry, dict):
        return 0
    kind = entry.get("type")
    if kind is None and "role" in entry:
        return _score_message(entry)
    if kind is None:
        return 2 if isinstance(entry.get("id"), str) and set(entry) <= {"id", "type"} else 0
    if kind == "message":
        return 2 if _score_message(entry) else 0
    return 2 if isinstance(kind, str) and kind in ITEM_TYPES else 0


def _score_message(message: dict[str, Any]) -> int:
    if message.get("role") not in MESSAGE_ROLES:
        return 0
    return score_content(message.get("content"), _score_part)

"""Whether a payload is ART's: 2 when a message has a role only ART uses
(``tool_request``, ``tool_result``), 1 for role/content messages that fit, else 0."""

from __future__ import annotations

from providers.formats._message_lists.shapes import score_payload
from providers.formats.art._constants import ART_ONLY_ROLES, MESSAGE_KEYS, RESULT_ROLES, ROLES
from providers.umf import JSON


def detect(payload: JSON) -> int:
    """2 for a role only ART has, 1 for messages that fit, else 0."""
    return score_payload(payload, _score_message)


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return 0
    if "content" not in message or set(message) - MESSAGE_KEYS:
        return 0
    if not isinstance(message["content"], str | dict | None):
        return 0
    if message["role"] in RESULT_ROLES and not isinstance(message.get("tool_call_id"), str):
        return 0
    return 2 if message["role"] in ART_ONLY_ROLES else 1

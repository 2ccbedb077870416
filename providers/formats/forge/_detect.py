"""Whether a payload is Forge's: 2 for Forge's marks (a ``<tool>`` call in an assistant's
text, a ``Tool: <name>`` tool message, Go's ``Role`` / ``Content`` keys), 1 for plain
role/text messages, else 0."""

from __future__ import annotations

from providers.formats._message_lists.shapes import score_payload
from providers.formats.forge._constants import KEYS, ROLES, TOOL_OPEN
from providers.formats.forge._parse_text import Call, read_assistant, read_result
from providers.umf import JSON


def detect(payload: JSON) -> int:
    """2 for Forge's marks, 1 for plain role/text messages, else 0."""
    return score_payload(payload, _score_message)


def _score_message(message: JSON) -> int:
    if not isinstance(message, dict):
        return 0
    keys = tuple(message)
    go = set(keys) == set(KEYS["go"])
    if not go and set(keys) != set(KEYS["lower"]):
        return 0
    role_key, content_key = KEYS["go" if go else "lower"]
    role, text = message[role_key], message[content_key]
    if role not in ROLES or not isinstance(text, str):
        return 0
    if go or (role == "tool" and read_result(text) is not None):
        return 2
    if role == "assistant" and TOOL_OPEN in text:
        return 2 if any(isinstance(piece, Call) for piece in read_assistant(text)) else 1
    return 1

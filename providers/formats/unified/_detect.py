"""Whether a payload is a UMF document."""

from __future__ import annotations

from providers.formats.base import FormatError
from providers.formats.unified._constants import (
    CONVERSATION_KEYS,
    MESSAGE_KEYS,
    UMF_ONLY_MESSAGE_KEYS,
)
from providers.formats.unified._parse import parse
from providers.umf import JSON


def detect(payload: JSON) -> int:
    """UMF conversations have ``messages`` with UMF's own block names or message keys, and
    read as UMF (other formats share some key names: Appam's ``reasoning``, ai.matey's
    ``metadata``)."""
    score = _marks(payload)
    if score == 2:
        try:
            parse(payload)
        except FormatError:
            return 0
    return score


def _marks(payload: JSON) -> int:
    messages = payload.get("messages") if isinstance(payload, dict) else payload
    if not isinstance(messages, list) or not messages:
        return 0
    if isinstance(payload, dict) and set(payload) - CONVERSATION_KEYS:
        return 0
    score = 1
    for message in messages:
        if not isinstance(message, dict) or set(message) - MESSAGE_KEYS:
            return 0
        content = message.get("content")
        if message.keys() & UMF_ONLY_MESSAGE_KEYS:
            score = 2
        if isinstance(content, list) and any(_umf_only_block(block) for block in content):
            score = 2
        if message.get("role") == "tool" and isinstance(content, list):
            score = 2
    if isinstance(payload, dict) and (
        "metadata" in payload or isinstance(payload.get("tool_choice"), dict)
    ):
        score = 2
    return score


def _umf_only_block(block: JSON) -> bool:
    # tool_use / tool_result look the same in Anthropic's format; these do not.
    if not isinstance(block, dict):
        return False
    return block.get("type") == "refusal" or (block.get("type") == "thinking" and "text" in block)

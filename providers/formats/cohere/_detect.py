"""How sure ``cohere`` is that a payload is its own (see :class:`Format`).

2 for Cohere's marks: a response with an upper-case ``finish_reason`` beside its
``message``, or a field only Cohere declares in :data:`DISTINCTIVE` (``documents``,
``citation_options``, ``safety_mode``, ``k``, ``p``, ``priority``, ``tool_choice`` REQUIRED
or NONE, ``thinking`` with a ``token_budget``, an assistant ``tool_plan``, a ``document``
part), weighed against every other format's by ``providers.formats._kit.detect``. 1 when
plain role/content messages merely fit; 0 when anything in the payload is not Cohere v2 chat.
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.detect import Scorers, fit_shapes, score_message
from providers.formats._kit.detect import Distinctive, score_fit
from providers.umf import JSON

from ._constants import FINISH_REASONS, FORMAT_ID, PARAMETERS, PART_TYPES, ROLES

# Every field a Cohere v2 chat request, message and content part may carry.
DISTINCTIVE = Distinctive(
    request=(
        *(spec.wire for spec in PARAMETERS),
        *("messages", "tools", "tool_choice", "strict_tools", "documents", "citation_options"),
        *("response_format", "safety_mode", "logprobs", "thinking", "priority"),
    ),
    message=("role", "content", "tool_calls", "tool_call_id", "tool_plan", "citations"),
    block_types=tuple(sorted({kind for kinds in PART_TYPES.values() for kind in kinds})),
    block_fields=("type", "text", "image_url", "document", "thinking"),
    values=("tool_choice=REQUIRED", "tool_choice=NONE", "thinking.token_budget"),
)
# Message fields of other chat formats that a Cohere message never has.
_FOREIGN_MESSAGE_KEYS = {"name", "refusal", "audio", "function_call", "prefix", "images"}
_FOREIGN_MESSAGE_KEYS |= {"thinking", "tool_name", "reasoning_content"}


def detect(payload: JSON) -> int:
    """0 (not mine), 1 (fits) or 2 (surely Cohere v2 chat)."""
    return score_fit(FORMAT_ID, payload, fit_shapes(payload, _SCORERS))


def _score_response(payload: dict[str, Any]) -> int:
    message = payload.get("message")
    if not isinstance(message, dict) or message.get("role") != "assistant" or "choices" in payload:
        return 0
    reason = payload.get("finish_reason")
    if not isinstance(reason, str) or not _score_message(message):
        return 0
    return 2 if reason in FINISH_REASONS else 1


def _score_message(message: JSON) -> int:
    # A tool message names its call; calls carry an id and a JSON string of arguments.
    tool = isinstance(message, dict) and message.get("role") == "tool"
    if tool and not isinstance(message.get("tool_call_id"), str):
        return 0
    return score_message(message, ROLES, _FOREIGN_MESSAGE_KEYS, _score_part, str)


def _score_part(part: JSON, role: str) -> int:
    return 1 if isinstance(part, dict) and part.get("type") in PART_TYPES[role] else 0


_SCORERS = Scorers(
    _score_message, _score_response, "message", response_first=False, sure_exchange=True
)

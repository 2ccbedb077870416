"""A GenerateContentResponse -> the last assistant message.

The first candidate's content becomes the message, with ``responseId`` as its id,
``modelVersion`` as its model, the normalised finish reason (the raw ``finishReason`` in
``provider_finish_reason``) and usage. What UMF has no name for comes back from hints on
the message: ``$response`` holds the response's other fields (``promptFeedback``,
``createTime``...; its presence marks the message as a response), ``$candidate`` the
candidate's (``index``, ``safetyRatings``, ``citationMetadata``, ``groundingMetadata``...),
``$other_candidates`` the candidates after the first, verbatim. A blocked prompt has no
candidate: the message is empty, its finish reason ``content_filter`` from
``promptFeedback.blockReason``, and ``$candidates`` says how the list looked.
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.fields import Fields
from providers.formats._kit.paths import at
from providers.formats.base import FormatError
from providers.formats.gemini._constants import FINISH_REASONS, FORMAT_ID
from providers.formats.gemini._parse_parts import ParseState, parse_content
from providers.umf import JSON, Message, Usage

_COUNTS = (
    "promptTokenCount",
    "candidatesTokenCount",
    "thoughtsTokenCount",
    "cachedContentTokenCount",
    "toolUsePromptTokenCount",
    "totalTokenCount",
)


def parse_response(raw: JSON, path: str, state: ParseState) -> Message:
    """The assistant message a response holds (see the module docstring)."""
    fields = Fields(raw, path)
    candidates = fields.array("candidates")
    hints: dict[str, Any] = {}
    if candidates:
        message = _first_candidate(candidates[0], f"{fields.at('candidates')}[0]", hints, state)
        if len(candidates) > 1:
            hints["$other_candidates"] = candidates[1:]
    else:
        message = _blocked(fields, hints, candidates)
    message.id = fields.string("responseId")
    message.model = fields.string("modelVersion")
    usage = fields.mapping("usageMetadata")
    if usage is not None:
        message.usage = parse_usage(usage, fields.at("usageMetadata"))
    message.extra.setdefault(FORMAT_ID, {}).update({**hints, "$response": fields.rest})
    return message


def _first_candidate(raw: JSON, path: str, hints: dict[str, Any], state: ParseState) -> Message:
    candidate = Fields(raw, path)
    content = candidate.mapping("content")
    if content is None:
        # An explicit null stays in ``$candidate`` and comes back from there.
        message = Message(role="assistant")
        hints["$content"] = "absent"
    else:
        message = parse_content(content, candidate.at("content"), "r", state, "assistant")
        if message.role != "assistant":
            raise FormatError(
                "a candidate's content has role 'model'", field=candidate.at("content.role")
            )
    reason = candidate.string("finishReason")
    message.provider_finish_reason = reason
    # A function-call turn ends with STOP: tool_calls is inferred from the functionCall parts.
    if reason == "STOP" and any(block.type == "tool_use" for block in message.content):
        message.finish_reason = "tool_calls"
    elif reason is not None:
        message.finish_reason = FINISH_REASONS.get(reason)
    hints["$candidate"] = candidate.rest
    return message


def _blocked(fields: Fields, hints: dict[str, Any], candidates: list[Any] | None) -> Message:
    """The empty answer to a prompt that was blocked (or a response with no candidate)."""
    hints["$candidates"] = "empty" if candidates is not None else "absent"
    feedback = fields.rest.get("promptFeedback")
    reason = feedback.get("blockReason") if isinstance(feedback, dict) else None
    message = Message(role="assistant")
    if isinstance(reason, str):
        message.provider_finish_reason = reason
        message.finish_reason = "content_filter"
    return message


def parse_usage(raw: dict[str, Any], path: str) -> Usage:
    """``usageMetadata`` in UMF's (OpenAI's) meaning: ``candidatesTokenCount`` excludes
    ``thoughtsTokenCount``, UMF ``completion_tokens`` includes it; the prompt includes the
    cached content and the tool-use prompt. ``raw`` keeps the object as sent."""
    for key in _COUNTS:
        value = raw.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise FormatError(f"{key!r} must be an integer", field=at(path, key))
    prompt, tool_prompt = raw.get("promptTokenCount"), raw.get("toolUsePromptTokenCount")
    candidates, thoughts = raw.get("candidatesTokenCount"), raw.get("thoughtsTokenCount")
    completion = None
    if candidates is not None or thoughts is not None:
        completion = (candidates or 0) + (thoughts or 0)
    return Usage(
        prompt_tokens=None if prompt is None else prompt + (tool_prompt or 0),
        completion_tokens=completion,
        total_tokens=raw.get("totalTokenCount"),
        cached_tokens=raw.get("cachedContentTokenCount"),
        reasoning_tokens=thoughts,
        raw=dict(raw),
    )

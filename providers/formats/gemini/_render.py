"""UMF conversation -> Gemini payload in the shape it was read in (default: a request): its
``generationConfig``, and the parameters Gemini cannot take, here too."""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.shape import main_thread, shaped_payload
from providers.formats._kit.drift import (
    clamp_parameter,
    no_place_for_message_facts,
    report_foreign_extra,
    report_message_metadata,
    report_unsupported_parameters,
)
from providers.formats._kit.extra import hint, own_extra
from providers.formats._kit.wire import wire_finish_reason
from providers.formats.base import Rendered
from providers.formats.gemini._constants import (
    FORMAT_ID,
    GENERATION_KEYS,
    MAX_STOP_SEQUENCES,
    TEMPERATURE_RANGE,
    TOP_P_RANGE,
    WIRE_FINISH_REASONS,
)
from providers.formats.gemini._render_parts import Context, Part, new_context
from providers.formats.gemini._render_tools import render_tool_config, render_tools
from providers.formats.gemini._render_turns import build_turns, system_instruction
from providers.formats.gemini._rules import Contents
from providers.umf import Conversation, Message, Severity, ToolUseBlock, Usage

_NO_MESSAGE_METADATA = no_place_for_message_facts("a Gemini request")

# Conversation-level fields written by their own renderers, not merged back verbatim.
_HANDLED = ("generationConfig", "toolConfig")


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as a Gemini payload in the shape it was read in (see the package
    docstring): the payload and the warnings for what it could not carry."""
    ctx = new_context(faithful=hint(conversation.extra, FORMAT_ID, "shape") is not None)
    thread = main_thread(conversation, ctx.drift, "Gemini")
    ctx.call_names = {
        block.id: block.name
        for _, message in thread
        for block in message.content
        if type(block) is ToolUseBlock  # the block's class: no read of its dict for others
    }
    last = thread[-1][1] if thread else None
    payload = shaped_payload(
        conversation,
        thread,
        FORMAT_ID,
        is_response=last is not None and hint(last.extra, FORMAT_ID, "response") is not None,
        messages=lambda messages: _contents(messages, ctx)[0],
        request=lambda messages: _request(conversation, messages, ctx),
        response=lambda entry: response_payload(entry, ctx),
    )
    return Rendered(payload, ctx.drift.warnings)


def _request(
    conversation: Conversation, thread: list[tuple[int, Message]], ctx: Context
) -> dict[str, Any]:
    if ctx.faithful:
        contents, system_messages, system_parts = _contents(thread, ctx)
    else:
        rules = Contents(ctx)
        system_messages, system_parts = build_turns(thread, ctx, rules.add)
        contents = rules.close()
        report_message_metadata(thread, ctx.drift, _NO_MESSAGE_METADATA)
    body: dict[str, Any] = {}
    system = system_instruction(system_messages, system_parts, ctx)
    if system is not None:
        body["systemInstruction"] = system
    body["contents"] = contents
    tools = render_tools(conversation, ctx)
    if tools is not None:
        body["tools"] = tools
    _put(body, "toolConfig", render_tool_config(conversation, tools, ctx))
    _put(body, "generationConfig", generation_config(conversation, ctx))
    if ctx.faithful and conversation.parameters.model is not None:
        body["model"] = conversation.parameters.model
    warn_unsupported(conversation, ctx)
    own = own_extra(conversation.extra, FORMAT_ID)
    body.update({key: value for key, value in own.items() if key not in _HANDLED})
    report_foreign_extra(conversation.extra, "", ctx)
    return body


def _contents(
    thread: list[tuple[int, Message]], ctx: Context
) -> tuple[list[dict[str, Any]], list[Message], list[Part]]:
    """The turns of ``thread`` as they are, their system messages and parts (see
    :func:`build_turns`)."""
    contents: list[dict[str, Any]] = []
    system_messages, system_parts = build_turns(
        thread, ctx, lambda turns: contents.extend([turn.payload() for turn in turns])
    )
    return contents, system_messages, system_parts


def _put(body: dict[str, Any], key: str, value: tuple[bool, Any]) -> None:
    present, content = value
    if present:
        body[key] = content


def response_payload(entry: tuple[int, Message], ctx: Context) -> dict[str, Any]:
    """The last assistant message as the GenerateContentResponse it was read from."""
    index, message = entry
    response = dict(hint(message.extra, FORMAT_ID, "response", {}))
    candidates = hint(message.extra, FORMAT_ID, "candidates")
    if candidates is None:
        response["candidates"] = [
            _candidate(index, message, ctx),
            *hint(message.extra, FORMAT_ID, "other_candidates", []),
        ]
    elif candidates == "empty":
        response["candidates"] = []
    if message.usage is not None:
        response["usageMetadata"] = (
            message.usage.raw if message.usage.raw is not None else usage_payload(message.usage)
        )
    if message.model is not None:
        response["modelVersion"] = message.model
    if message.id is not None:
        response["responseId"] = message.id
    return response


def _candidate(index: int, message: Message, ctx: Context) -> dict[str, Any]:
    candidate = dict(hint(message.extra, FORMAT_ID, "candidate", {}))
    if hint(message.extra, FORMAT_ID, "content") != "absent":
        contents, _, _ = _contents([(index, message)], ctx)
        candidate["content"] = contents[0]
    reason = wire_finish_reason(message, WIRE_FINISH_REASONS)
    if reason is not None:
        candidate["finishReason"] = reason
    return candidate


def usage_payload(usage: Usage) -> dict[str, Any]:
    """UMF usage in Gemini's meaning (candidates without the thoughts)."""
    body: dict[str, Any] = {}
    if usage.prompt_tokens is not None:
        body["promptTokenCount"] = usage.prompt_tokens
    if usage.completion_tokens is not None:
        body["candidatesTokenCount"] = usage.completion_tokens - (usage.reasoning_tokens or 0)
    if usage.reasoning_tokens is not None:
        body["thoughtsTokenCount"] = usage.reasoning_tokens
    if usage.cached_tokens is not None:
        body["cachedContentTokenCount"] = usage.cached_tokens
    if usage.total_tokens is not None:
        body["totalTokenCount"] = usage.total_tokens
    return body


_RANGES = {"temperature": TEMPERATURE_RANGE, "top_p": TOP_P_RANGE}


def generation_config(conversation: Conversation, ctx: Context) -> tuple[bool, Any]:
    """``(present, value)`` of ``generationConfig``: the sampling parameters over the
    fields kept from a Gemini payload (``thinkingConfig``, ``responseMimeType``...)."""
    own = own_extra(conversation.extra, FORMAT_ID)
    kept = own.get("generationConfig")
    mapped: dict[str, Any] = {}
    for name, key in GENERATION_KEYS.items():
        value = getattr(conversation.parameters, name)
        if value is not None:
            mapped[key] = value if ctx.faithful else _fitted(name, value, ctx)
    if not mapped:
        return "generationConfig" in own, kept
    return True, {**(kept if isinstance(kept, dict) else {}), **mapped}


def _fitted(name: str, value: Any, ctx: Context) -> Any:
    """A parameter within Gemini's limits (each change noted)."""
    if name == "stop" and len(value) > MAX_STOP_SEQUENCES:
        ctx.drift.add(
            "stop-sequences-truncated",
            f"Gemini takes at most {MAX_STOP_SEQUENCES} stop sequences; the rest were left out",
            field="parameters.stop",
            original=value,
            transformed=value[:MAX_STOP_SEQUENCES],
        )
        return value[:MAX_STOP_SEQUENCES]
    if name in _RANGES:
        low, high = _RANGES[name]
        return clamp_parameter(
            value, low, high, ctx.drift, name, f"Gemini takes {name} from {low} to {high}"
        )
    return value


def warn_unsupported(conversation: Conversation, ctx: Context) -> None:
    """Parameters a generateContent body has no field for."""
    params = conversation.parameters
    reasons: dict[str, tuple[str, Severity]] = {
        "user": ("Gemini has no end-user id", "warning"),
        "parallel_tool_calls": ("Gemini has no switch for parallel function calls", "warning"),
        "stream": ("Gemini streams by endpoint (streamGenerateContent), not by a field", "info"),
    }
    if not ctx.faithful:
        reasons["model"] = ("the Gemini model is part of the URL, not of the body", "info")
    for name, (why, severity) in reasons.items():
        value = getattr(params, name)
        if value is not None:
            ctx.drift.add(
                "parameter-unsupported",
                f"{why}; left out",
                field=f"parameters.{name}",
                original=value,
                severity=severity,
            )
    report_unsupported_parameters(
        params,
        (),
        ctx.drift,
        missing="",
        custom="custom parameter {key!r} is not a Gemini parameter; left out",
    )

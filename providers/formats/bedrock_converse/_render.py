"""UMF conversation -> Bedrock Converse payload in the shape it was read in (default: a
request as boto3 takes it, ``modelId`` included)."""

from __future__ import annotations

from typing import Any

from providers.formats._common import hint, own_extra, report_message_metadata
from providers.formats.base import Drift, Rendered
from providers.formats.bedrock_converse._constants import DEFAULT_MODEL, FORMAT_ID, STOP_REASONS
from providers.formats.bedrock_converse._context import Context, warn_foreign_extra
from providers.formats.bedrock_converse._drafts import build_drafts
from providers.formats.bedrock_converse._render_blocks import render_blocks
from providers.formats.bedrock_converse._sequence import normalize
from providers.formats.bedrock_converse._tools import render_tool_config
from providers.umf import JSON, Conversation, Message, Parameters, Usage, main_path

_NO_MESSAGE_METADATA = (
    "a Bedrock Converse request has no per-message ids, timestamps, models, finish reasons "
    "or usage; left out"
)

# Parameters Converse has no member for (top_k only through a model's own
# additionalModelRequestFields, whose names differ per model).
_UNSUPPORTED = (
    "top_k",
    "seed",
    "frequency_penalty",
    "presence_penalty",
    "user",
    "parallel_tool_calls",
)


def render_conversation(conversation: Conversation) -> Rendered:
    """The payload for ``conversation`` and the warnings for what it could not carry."""
    shape = hint(conversation.extra, FORMAT_ID, "shape")
    ctx = Context(Drift(FORMAT_ID), faithful=shape is not None)
    thread = _thread(conversation, ctx)
    if not ctx.faithful:  # from another format: always a request of the whole thread
        report_message_metadata(thread, ctx.drift, _NO_MESSAGE_METADATA)
    last = thread[-1][1] if thread else None
    is_response = last is not None and hint(last.extra, FORMAT_ID, "response") is True
    payload: JSON
    if shape == "messages":
        drafts, _ = build_drafts(thread, ctx, system_in_place=True)
        payload = [draft.payload() for draft in drafts]
    elif shape == "response" and is_response and len(thread) == 1:
        payload = response_payload(thread[0], ctx)
    elif shape == "exchange" and is_response:
        payload = {
            "request": _request(conversation, thread[:-1], ctx),
            "response": response_payload(thread[-1], ctx),
            **hint(conversation.extra, FORMAT_ID, "exchange", {}),
        }
    else:
        payload = _request(conversation, thread, ctx)
    return Rendered(payload, ctx.drift.warnings)


def _thread(conversation: Conversation, ctx: Context) -> list[tuple[int, Message]]:
    """The messages to send with their UMF positions: one path through a tree."""
    positions = {id(message): index for index, message in enumerate(conversation.messages)}
    path = main_path(conversation)
    if len(path) < len(conversation.messages):
        ctx.drift.add(
            "content-dropped",
            "Bedrock takes one thread; the other branches were left out",
            field="messages",
            original=len(conversation.messages),
            transformed=len(path),
        )
    return [(positions[id(message)], message) for message in path]


def _request(
    conversation: Conversation, thread: list[tuple[int, Message]], ctx: Context
) -> dict[str, Any]:
    drafts, system = build_drafts(thread, ctx, system_in_place=False)
    if not ctx.faithful:
        drafts = normalize(drafts, ctx)
    body: dict[str, Any] = {}
    model = _model(conversation.parameters, ctx)
    if model is not None:
        body["modelId"] = model
    body["messages"] = [draft.payload() for draft in drafts]
    if system or (ctx.faithful and _had_system(thread)):
        body["system"] = [part.body for part in system]
    inference = _inference_config(conversation, ctx)
    if inference is not None:
        body["inferenceConfig"] = inference
    tool_config = render_tool_config(conversation, drafts, ctx)
    if tool_config is not None:
        body["toolConfig"] = tool_config
    body.update(own_extra(conversation.extra, FORMAT_ID))
    warn_foreign_extra(conversation.extra, "", ctx)
    return body


def _had_system(thread: list[tuple[int, Message]]) -> bool:
    """Whether a top-level ``system`` was read (an empty list leaves an empty message)."""
    return any(
        message.role == "system" and not hint(message.extra, FORMAT_ID, "system")
        for _, message in thread
    )


def _model(parameters: Parameters, ctx: Context) -> str | None:
    if parameters.model or ctx.faithful:
        return parameters.model
    ctx.drift.add(
        "parameter-defaulted",
        "Bedrock needs a model id; the default was used",
        field="parameters.model",
        original=parameters.model,
        transformed=DEFAULT_MODEL,
    )
    return DEFAULT_MODEL


def _inference_config(conversation: Conversation, ctx: Context) -> dict[str, Any] | None:
    """``inferenceConfig`` from the UMF parameters (and the members kept from a read)."""
    params = conversation.parameters
    rest = hint(conversation.extra, FORMAT_ID, "inferenceConfig")
    config: dict[str, Any] = {}
    if params.max_tokens is not None:
        config["maxTokens"] = _clamped("max_tokens", params.max_tokens, 1, None, ctx)
    if params.temperature is not None:
        config["temperature"] = _clamped("temperature", params.temperature, 0, 1, ctx)
    if params.top_p is not None:
        config["topP"] = _clamped("top_p", params.top_p, 0, 1, ctx)
    if params.stop is not None:
        config["stopSequences"] = params.stop
    if not ctx.faithful:
        _warn_unsupported(params, ctx)
    if rest is None and not config:
        return None
    return {**config, **(rest or {})}


def _clamped(name: str, value: Any, low: float, high: float | None, ctx: Context) -> Any:
    """``value`` within Converse's range (temperature and topP 0..1, maxTokens >= 1)."""
    if ctx.faithful:
        return value
    fitted = max(low, value) if high is None else min(max(low, value), high)
    if fitted != value:
        fitted = type(value)(fitted)
        ctx.drift.add(
            "parameter-clamped",
            f"Bedrock takes {name} within its range; clamped",
            field=f"parameters.{name}",
            original=value,
            transformed=fitted,
        )
    return fitted


def _warn_unsupported(params: Parameters, ctx: Context) -> None:
    if params.stream:
        ctx.drift.add(
            "parameter-unsupported",
            "streaming is another operation (ConverseStream); rendered as a Converse request",
            field="parameters.stream",
            original=True,
            severity="info",
        )
    for name in _UNSUPPORTED:
        value = getattr(params, name)
        if value is not None:
            ctx.drift.add(
                "parameter-unsupported",
                f"Converse has no {name}; left out",
                field=f"parameters.{name}",
                original=value,
            )
    for name, value in params.custom.items():
        ctx.drift.add(
            "parameter-unsupported",
            f"custom parameter {name!r} is not a Converse parameter; left out",
            field=f"parameters.custom.{name}",
            original=value,
        )


def response_payload(entry: tuple[int, Message], ctx: Context) -> dict[str, Any]:
    """The last assistant message as the Converse response it was read from."""
    index, message = entry
    parts = render_blocks(message.content, f"messages[{index}]", message.extra, ctx)
    body: dict[str, Any] = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [part.body for part in parts],
                **hint(message.extra, FORMAT_ID, "message_fields", {}),
            },
            **hint(message.extra, FORMAT_ID, "output_fields", {}),
        }
    }
    stop_reason = message.provider_finish_reason
    if stop_reason is None:
        stop_reason = STOP_REASONS.get(message.finish_reason or "")
    if stop_reason is not None:
        body["stopReason"] = stop_reason
    if message.usage is not None:
        body["usage"] = (
            message.usage.raw if message.usage.raw is not None else usage_payload(message.usage)
        )
    body.update(own_extra(message.extra, FORMAT_ID))
    return body


def usage_payload(usage: Usage) -> dict[str, Any]:
    """UMF usage in Bedrock's meaning (input without the cache reads and writes)."""
    cached, written = usage.cached_tokens or 0, usage.cache_write_tokens or 0
    body: dict[str, Any] = {}
    if usage.prompt_tokens is not None:
        body["inputTokens"] = usage.prompt_tokens - cached - written
    if usage.completion_tokens is not None:
        body["outputTokens"] = usage.completion_tokens
    if usage.total_tokens is not None:
        body["totalTokens"] = usage.total_tokens
    if usage.cached_tokens is not None:
        body["cacheReadInputTokens"] = usage.cached_tokens
    if usage.cache_write_tokens is not None:
        body["cacheWriteInputTokens"] = usage.cache_write_tokens
    return body

"""UMF conversation -> Bedrock Converse payload in the shape it was read in (default: a
request as boto3 takes it, ``modelId`` included)."""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.drafts import Part
from providers.formats._content_blocks.render import (
    messages_and_system,
    put_stop_and_usage,
    render_in_shape,
    system_text,
)
from providers.formats._content_blocks.shape import Thread
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    clamp_parameter,
    no_place_for_message_facts,
    report_foreign_extra,
    report_unsupported_parameters,
)
from providers.formats._kit.extra import hint, own_extra
from providers.formats._kit.parameters import required_parameter
from providers.formats.base import Rendered
from providers.formats.bedrock_converse._constants import (
    DEFAULT_MODEL,
    FORMAT_ID,
    STOP_REASONS,
    USAGE_NAMES,
)
from providers.formats.bedrock_converse._render_blocks import DIALECT, new_context, render_blocks
from providers.formats.bedrock_converse._render_tools import render_tool_config
from providers.formats.bedrock_converse._rules import apply_rules
from providers.umf import Conversation, Message, Parameters

_NO_MESSAGE_METADATA = no_place_for_message_facts("a Bedrock Converse request")

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


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as a Converse payload in the shape it was read in (see the
    package docstring): the payload and the warnings for what it could not carry."""
    return render_in_shape(
        conversation,
        FORMAT_ID,
        DIALECT,
        new_context,
        no_message_metadata=_NO_MESSAGE_METADATA,
        messages=_messages,
        request=_request,
        response=response_payload,
    )


def _messages(
    messages: Thread, ctx: RenderContext, *, system_in_place: bool, calls: list[Part] | None = None
) -> tuple[list[dict[str, Any]], list[list[Part]]]:
    """The thread's messages as sent (from another format, ``calls`` gets the tool calls
    among them: :func:`apply_rules`), and the ``system`` blocks taken out of it. System and
    developer messages go to the top-level ``system`` unless they were Bedrock
    in-conversation system messages (or ``system_in_place``: a bare message list has no
    top-level ``system``)."""
    return messages_and_system(
        messages,
        ctx,
        DIALECT,
        stays=lambda message: (
            ctx.faithful and bool(system_in_place or hint(message.extra, FORMAT_ID, "system"))
        ),
        take=lambda message, path, leading: (
            render_blocks(message.content, path, message.extra, ctx)
            if ctx.faithful
            else system_text(message, path, leading, ctx, DIALECT)
        ),
        rules=lambda drafts: apply_rules(drafts, ctx, [] if calls is None else calls),
    )


def _request(conversation: Conversation, thread: Thread, ctx: RenderContext) -> dict[str, Any]:
    calls: list[Part] = []
    messages, taken = _messages(thread, ctx, system_in_place=False, calls=calls)
    system = [part for parts in taken for part in parts]
    body: dict[str, Any] = {}
    why = "Bedrock needs a model id; the default was used"
    model = required_parameter(conversation.parameters.model, DEFAULT_MODEL, "model", ctx, why)
    if model is not None:
        body["modelId"] = model
    body["messages"] = messages
    if system or (ctx.faithful and _had_system(thread)):
        body["system"] = [part.body for part in system]
    inference = _inference_config(conversation, ctx)
    if inference is not None:
        body["inferenceConfig"] = inference
    tool_config = render_tool_config(conversation, calls, ctx)
    if tool_config is not None:
        body["toolConfig"] = tool_config
    body.update(own_extra(conversation.extra, FORMAT_ID))
    report_foreign_extra(conversation.extra, "", ctx)
    return body


def _had_system(thread: list[tuple[int, Message]]) -> bool:
    """Whether a top-level ``system`` was read (an empty list leaves an empty message)."""
    return any(
        message.role == "system" and not hint(message.extra, FORMAT_ID, "system")
        for _, message in thread
    )


def _inference_config(conversation: Conversation, ctx: RenderContext) -> dict[str, Any] | None:
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


def _clamped(name: str, value: Any, low: float, high: float | None, ctx: RenderContext) -> Any:
    """``value`` within Converse's range (temperature and topP 0..1, maxTokens >= 1)."""
    if ctx.faithful:
        return value
    why = f"Bedrock takes {name} within its range; clamped"
    return clamp_parameter(value, low, high, ctx.drift, name, why)


def _warn_unsupported(params: Parameters, ctx: RenderContext) -> None:
    if params.stream:
        ctx.drift.add(
            "parameter-unsupported",
            "streaming is another operation (ConverseStream); rendered as a Converse request",
            field="parameters.stream",
            original=True,
            severity="info",
        )
    report_unsupported_parameters(
        params,
        _UNSUPPORTED,
        ctx.drift,
        missing="Converse has no {key}; left out",
        custom="custom parameter {key!r} is not a Converse parameter; left out",
    )


def response_payload(entry: tuple[int, Message], ctx: RenderContext) -> dict[str, Any]:
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
    put_stop_and_usage(body, message, STOP_REASONS, USAGE_NAMES, stop_key="stopReason")
    body.update(own_extra(message.extra, FORMAT_ID))
    return body

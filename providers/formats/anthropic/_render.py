"""UMF conversation -> Anthropic payload in the shape it was read in (default: a request),
with its ``tools`` and ``tool_choice``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from providers.formats._content_blocks.drafts import Part
from providers.formats._content_blocks.render import (
    messages_and_system,
    put_stop_and_usage,
    render_in_shape,
    system_text,
)
from providers.formats._content_blocks.shape import Thread
from providers.formats._content_blocks.tools import defaulted_schema, report_choice_without_tools
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    no_place_for_message_facts,
    offered_choice,
    report_foreign_extra,
    report_parameters_dropped,
    report_unsupported_parameters,
)
from providers.formats._kit.extra import hint, own_extra
from providers.formats._kit.parameters import required_parameter
from providers.formats.anthropic._constants import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    FORMAT_ID,
    SAMPLING_PARAMETERS,
    STOP_REASONS,
    USAGE_NAMES,
)
from providers.formats.anthropic._render_blocks import (
    DIALECT,
    content_payload,
    new_context,
    provider_fields,
    render_blocks,
)
from providers.formats.anthropic._rules import apply_rules
from providers.formats.base import Rendered
from providers.umf import JSON, Conversation, Message, Tool

_NO_MESSAGE_METADATA = no_place_for_message_facts("an Anthropic request")


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as an Anthropic payload in the shape it was read in (see the
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


@dataclass
class SystemSource:
    """A UMF message that becomes (part of) the top-level ``system``."""

    parts: list[Part]
    content_hint: str | None


def _messages(
    messages: Thread, ctx: RenderContext, *, system_in_place: bool
) -> tuple[list[dict[str, Any]], list[SystemSource]]:
    """The thread's messages as sent, and the system prompt taken out of it. System and developer
    messages go to the top-level prompt unless they were Anthropic ``system`` messages (or
    ``system_in_place``: a bare message list has no top-level prompt)."""
    return messages_and_system(
        messages,
        ctx,
        DIALECT,
        stays=lambda message: (
            system_in_place
            or (ctx.faithful and hint(message.extra, FORMAT_ID, "system") == "message")
        ),
        take=lambda message, path, leading: SystemSource(
            system_text(message, path, leading, ctx, DIALECT),
            hint(message.extra, FORMAT_ID, "content"),
        ),
        rules=lambda drafts: apply_rules(drafts, ctx),
    )


def _system_payload(sources: list[SystemSource], ctx: RenderContext) -> JSON:
    """The top-level ``system`` value, or None to leave it out."""
    parts = [part for source in sources for part in source.parts]
    if not sources or (not parts and not ctx.faithful):
        return None
    content_hint = sources[0].content_hint if len(sources) == 1 else "blocks"
    return content_payload(parts, content_hint)


def _request(conversation: Conversation, thread: Thread, ctx: RenderContext) -> dict[str, Any]:
    messages, system_sources = _messages(thread, ctx, system_in_place=False)
    body = _parameters(conversation, ctx)
    system = _system_payload(system_sources, ctx)
    if system is not None:
        body["system"] = system
    body["messages"] = messages
    render_tools(conversation, body, ctx)
    # metadata was written with the UMF user above.
    body.update(
        {k: v for k, v in own_extra(conversation.extra, FORMAT_ID).items() if k != "metadata"}
    )
    report_foreign_extra(conversation.extra, "", ctx)
    return body


def _parameters(conversation: Conversation, ctx: RenderContext) -> dict[str, Any]:
    params = conversation.parameters
    body: dict[str, Any] = {}
    for name, default in (("model", DEFAULT_MODEL), ("max_tokens", DEFAULT_MAX_TOKENS)):
        why = f"Anthropic requires {name}; the default was used"
        value = required_parameter(getattr(params, name), default, name, ctx, why)
        if value is not None:
            body[name] = value
    # temperature/top_p/top_k: the current API version refuses them, so they travel only in
    # a round trip of an Anthropic payload that had them.
    sampling = {
        key: value for key in SAMPLING_PARAMETERS if (value := getattr(params, key)) is not None
    }
    if ctx.faithful:
        body.update(sampling)
    else:
        why = "the current Anthropic API refuses {key}; left out"
        report_parameters_dropped(sampling, ctx.drift, why)
    if params.stop is not None:
        body["stop_sequences"] = params.stop
    if params.stream is not None:
        body["stream"] = params.stream
    _metadata(conversation, body)
    _unsupported(conversation, ctx)
    return body


def _metadata(conversation: Conversation, body: dict[str, Any]) -> None:
    """``metadata`` as read (without user_id), plus the UMF ``user`` as ``user_id``."""
    own = own_extra(conversation.extra, FORMAT_ID)
    user = conversation.parameters.user
    if user is None:
        if "metadata" in own:
            body["metadata"] = own["metadata"]
        return
    body["metadata"] = {**(own.get("metadata") or {}), "user_id": user}


def _unsupported(conversation: Conversation, ctx: RenderContext) -> None:
    report_unsupported_parameters(
        conversation.parameters,
        ("seed", "frequency_penalty", "presence_penalty"),
        ctx.drift,
        missing="Anthropic has no {key}; left out",
        custom="custom parameter {key!r} is not an Anthropic parameter; left out",
    )


def response_payload(entry: tuple[int, Message], ctx: RenderContext) -> dict[str, Any]:
    """The last assistant message as the Message object the API answered."""
    index, message = entry
    path = f"messages[{index}]"
    parts = render_blocks(message.content, path, message.extra, ctx)
    body: dict[str, Any] = {"role": "assistant", "content": [part.body for part in parts]}
    if message.id is not None:
        body["id"] = message.id
    if message.model is not None:
        body["model"] = message.model
    put_stop_and_usage(body, message, STOP_REASONS, USAGE_NAMES, stop_key="stop_reason")
    body.update(provider_fields(message.extra))
    return body


def render_tools(conversation: Conversation, body: dict[str, Any], ctx: RenderContext) -> None:
    tools = [_tool(tool, f"tools[{index}]", ctx) for index, tool in enumerate(conversation.tools)]
    if tools or hint(conversation.extra, FORMAT_ID, "tools") == "empty":
        body["tools"] = tools
    choice = _tool_choice(conversation, bool(tools), ctx)
    if choice is not None:
        body["tool_choice"] = choice


def _tool(tool: Tool, path: str, ctx: RenderContext) -> dict[str, Any]:
    body: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        body["description"] = tool.description
    schema = tool.parameters
    if schema is None and not ctx.faithful:
        schema = defaulted_schema(path, ctx.drift, "Anthropic")
    if schema is not None:
        body["input_schema"] = schema
    body.update(own_extra(tool.extra, FORMAT_ID))
    report_foreign_extra(tool.extra, path, ctx)
    return body


def _tool_choice(
    conversation: Conversation, has_tools: bool, ctx: RenderContext
) -> dict[str, Any] | None:
    choice = conversation.tool_choice
    parallel = conversation.parameters.parallel_tool_calls
    if choice is None:
        # OpenAI's parallel_tool_calls=false is Anthropic's disable_parallel_tool_use.
        return (
            {"type": "auto", "disable_parallel_tool_use": True}
            if parallel is False and has_tools
            else None
        )
    if not has_tools and not ctx.faithful:
        report_choice_without_tools(choice, ctx.drift, "Anthropic")
        return None
    if not ctx.faithful:
        choice = offered_choice(choice, conversation.tools, ctx.drift)
    body: dict[str, Any] = {"type": {"required": "any"}.get(choice.type, choice.type)}
    if choice.name is not None:
        body["name"] = choice.name
    if parallel is False and choice.type != "none":
        body["disable_parallel_tool_use"] = True
    body.update(own_extra(choice.extra, FORMAT_ID))
    report_foreign_extra(choice.extra, "tool_choice", ctx)
    return body

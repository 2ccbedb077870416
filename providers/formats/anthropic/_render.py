"""UMF conversation -> Anthropic payload in the shape it was read in (default: a request)."""

from __future__ import annotations

from typing import Any

from providers.formats._common import hint, offered_choice, own_extra, report_message_metadata
from providers.formats.anthropic._constants import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    FORMAT_ID,
    SAMPLING_PARAMETERS,
    STOP_REASONS,
)
from providers.formats.anthropic._drafts import build_drafts, system_payload
from providers.formats.anthropic._normalize import normalize
from providers.formats.anthropic._render_blocks import (
    Context,
    provider_fields,
    render_blocks,
    warn_foreign_extra,
)
from providers.formats.base import Drift, Rendered
from providers.umf import JSON, Conversation, Message, Tool, Usage, main_path

_NO_MESSAGE_METADATA = (
    "an Anthropic request has no per-message ids, timestamps, models, finish reasons or "
    "usage; left out"
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
            "Anthropic takes one thread; the other branches were left out",
            field="messages",
            original=len(conversation.messages),
            transformed=len(path),
        )
    return [(positions[id(message)], message) for message in path]


def _request(
    conversation: Conversation, thread: list[tuple[int, Message]], ctx: Context
) -> dict[str, Any]:
    drafts, system_sources = build_drafts(thread, ctx, system_in_place=False)
    if not ctx.faithful:
        drafts = normalize(drafts, ctx)
    body = _parameters(conversation, ctx)
    system = system_payload(system_sources, ctx)
    if system is not None:
        body["system"] = system
    body["messages"] = [draft.payload() for draft in drafts]
    _tools(conversation, body, ctx)
    # metadata was written with the UMF user above.
    body.update(
        {k: v for k, v in own_extra(conversation.extra, FORMAT_ID).items() if k != "metadata"}
    )
    warn_foreign_extra(conversation.extra, "", ctx)
    return body


def _parameters(conversation: Conversation, ctx: Context) -> dict[str, Any]:
    params = conversation.parameters
    body: dict[str, Any] = {}
    for name, default in (("model", DEFAULT_MODEL), ("max_tokens", DEFAULT_MAX_TOKENS)):
        value = getattr(params, name)
        # An empty model name is no model either.
        if value in (None, "") and not ctx.faithful:
            ctx.drift.add(
                "parameter-defaulted",
                f"Anthropic requires {name}; the default was used",
                field=f"parameters.{name}",
                original=value,
                transformed=default,
            )
            value = default
        if value is not None:
            body[name] = value
    for name in SAMPLING_PARAMETERS:
        _sampling(name, getattr(params, name), body, ctx)
    if params.stop is not None:
        body["stop_sequences"] = params.stop
    if params.stream is not None:
        body["stream"] = params.stream
    _metadata(conversation, body)
    _unsupported(conversation, ctx)
    return body


def _sampling(name: str, value: float | None, body: dict[str, Any], ctx: Context) -> None:
    """temperature/top_p/top_k: the current API version refuses them, so they travel only
    in a round trip of an Anthropic payload that had them."""
    if value is None:
        return
    if ctx.faithful:
        body[name] = value
        return
    ctx.drift.add(
        "parameter-unsupported",
        f"the current Anthropic API refuses {name}; left out",
        field=f"parameters.{name}",
        original=value,
    )


def _metadata(conversation: Conversation, body: dict[str, Any]) -> None:
    """``metadata`` as read (without user_id), plus the UMF ``user`` as ``user_id``."""
    own = own_extra(conversation.extra, FORMAT_ID)
    user = conversation.parameters.user
    if user is None:
        if "metadata" in own:
            body["metadata"] = own["metadata"]
        return
    body["metadata"] = {**(own.get("metadata") or {}), "user_id": user}


def _unsupported(conversation: Conversation, ctx: Context) -> None:
    params = conversation.parameters
    for name in ("seed", "frequency_penalty", "presence_penalty"):
        value = getattr(params, name)
        if value is not None:
            ctx.drift.add(
                "parameter-unsupported",
                f"Anthropic has no {name}; left out",
                field=f"parameters.{name}",
                original=value,
            )
    for name, value in params.custom.items():
        ctx.drift.add(
            "parameter-unsupported",
            f"custom parameter {name!r} is not an Anthropic parameter; left out",
            field=f"parameters.custom.{name}",
            original=value,
        )


def _tools(conversation: Conversation, body: dict[str, Any], ctx: Context) -> None:
    tools = [_tool(tool, f"tools[{index}]", ctx) for index, tool in enumerate(conversation.tools)]
    if tools or hint(conversation.extra, FORMAT_ID, "tools") == "empty":
        body["tools"] = tools
    choice = _tool_choice(conversation, bool(tools), ctx)
    if choice is not None:
        body["tool_choice"] = choice


def _tool(tool: Tool, path: str, ctx: Context) -> dict[str, Any]:
    body: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        body["description"] = tool.description
    schema = tool.parameters
    if schema is None and not ctx.faithful:
        schema = {"type": "object", "properties": {}}
        ctx.drift.add(
            "parameter-defaulted",
            "Anthropic tools need an input schema; an empty object schema was used",
            field=f"{path}.parameters",
            transformed=schema,
            severity="info",
        )
    if schema is not None:
        body["input_schema"] = schema
    body.update(own_extra(tool.extra, FORMAT_ID))
    warn_foreign_extra(tool.extra, path, ctx)
    return body


def _tool_choice(
    conversation: Conversation, has_tools: bool, ctx: Context
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
        ctx.drift.add(
            "parameter-normalized",
            "tool_choice without tools means nothing to Anthropic; left out",
            field="tool_choice",
            original=choice.type,
            severity="info",
        )
        return None
    if not ctx.faithful:
        choice = offered_choice(choice, conversation.tools, ctx.drift)
    body: dict[str, Any] = {"type": {"required": "any"}.get(choice.type, choice.type)}
    if choice.name is not None:
        body["name"] = choice.name
    if parallel is False and choice.type != "none":
        body["disable_parallel_tool_use"] = True
    body.update(own_extra(choice.extra, FORMAT_ID))
    warn_foreign_extra(choice.extra, "tool_choice", ctx)
    return body


def response_payload(entry: tuple[int, Message], ctx: Context) -> dict[str, Any]:
    """The last assistant message as the Message object the API answered."""
    index, message = entry
    path = f"messages[{index}]"
    parts = render_blocks(message.content, path, message.extra, ctx)
    body: dict[str, Any] = {"role": "assistant", "content": [part.body for part in parts]}
    if message.id is not None:
        body["id"] = message.id
    if message.model is not None:
        body["model"] = message.model
    stop_reason = message.provider_finish_reason
    if stop_reason is None and message.finish_reason is not None:
        stop_reason = STOP_REASONS.get(message.finish_reason)
    if stop_reason is not None:
        body["stop_reason"] = stop_reason
    if message.usage is not None:
        body["usage"] = (
            message.usage.raw if message.usage.raw is not None else usage_payload(message.usage)
        )
    body.update(provider_fields(message.extra))
    return body


def usage_payload(usage: Usage) -> dict[str, Any]:
    """UMF usage in Anthropic's meaning (input without the cached tokens)."""
    cached, written = usage.cached_tokens or 0, usage.cache_write_tokens or 0
    body: dict[str, Any] = {}
    if usage.prompt_tokens is not None:
        body["input_tokens"] = usage.prompt_tokens - cached - written
    if usage.completion_tokens is not None:
        body["output_tokens"] = usage.completion_tokens
    if usage.cache_write_tokens is not None:
        body["cache_creation_input_tokens"] = usage.cache_write_tokens
    if usage.cached_tokens is not None:
        body["cache_read_input_tokens"] = usage.cached_tokens
    return body

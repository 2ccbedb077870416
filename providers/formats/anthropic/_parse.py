"""Anthropic payloads -> one UMF conversation.

Shapes (recorded as the conversation hint ``$shape``): ``request`` (a Messages request body),
``messages`` (a bare message list), ``exchange`` (``{"request", "response"}``, the response
becoming the last assistant message, marked ``$response``) and ``response`` (a bare Message).
"""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.parse import cached_usage, parse_id_paired, stop_sequences
from providers.formats._kit.extra import extra_of
from providers.formats._kit.fields import Fields
from providers.formats._kit.paths import at
from providers.formats.anthropic._constants import FINISH_REASONS, FORMAT_ID, ROLES, USAGE_NAMES
from providers.formats.anthropic._parse_blocks import (
    AnthropicFields,
    parse_block_list,
    parse_content,
)
from providers.formats.base import FormatError, ParseResult
from providers.umf import (
    JSON,
    Conversation,
    Message,
    Parameters,
    TextBlock,
    Tool,
    ToolChoice,
    Usage,
)

_TOOL_CHOICES = {"auto": "auto", "any": "required", "tool": "tool", "none": "none"}


def parse(payload: JSON) -> list[ParseResult]:
    """Read one Anthropic payload (request, message list, exchange or response) as one
    conversation. Raises :class:`FormatError` naming the field for anything that is not."""
    return parse_id_paired(
        payload,
        FORMAT_ID,
        parse_message,
        request=parse_request,
        response=parse_response,
        is_request=lambda raw: "messages" in raw,
        is_response=lambda raw: raw.get("type") == "message",
        expected=(
            "not an Anthropic Messages payload: expected a request with 'messages', a message "
            "list, a {'request', 'response'} exchange or a response message"
        ),
    )


def parse_request(raw: JSON, path: str) -> Conversation:
    """A Messages request body; fields UMF has no name for go to the conversation's extra."""
    fields = AnthropicFields(raw, path)
    raw_messages = fields.array("messages", required=True) or []
    messages = [
        parse_message(m, f"{fields.at('messages')}[{i}]") for i, m in enumerate(raw_messages)
    ]
    system = fields.take("system")
    if system is not None:
        messages.insert(0, _parse_system(system, fields.at("system")))
    tools = fields.array("tools")
    hints = {"$tools": "empty"} if tools == [] else {}
    tool_choice = fields.mapping("tool_choice")
    return Conversation(
        messages=messages,
        tools=[_parse_tool(t, f"{fields.at('tools')}[{i}]") for i, t in enumerate(tools or [])],
        tool_choice=(
            _parse_tool_choice(tool_choice, fields.at("tool_choice"))
            if tool_choice is not None
            else None
        ),
        parameters=_parse_parameters(fields),
        extra=extra_of(FORMAT_ID, {**fields.rest, **hints}),
    )


def parse_message(raw: JSON, path: str) -> Message:
    """One entry of ``messages``: role ``user``, ``assistant`` or ``system`` (the SDK's
    mid-conversation system message, hinted ``$system: message``)."""
    fields = AnthropicFields(raw, path)
    role = fields.string("role", required=True)
    if role is None or role not in ROLES:
        raise FormatError(
            f"unknown role {role!r}; expected one of {', '.join(ROLES)}", field=fields.at("role")
        )
    content = fields.take("content", required=True)
    if role == "system":
        blocks, hints = _system_content(content, fields.at("content"))
        hints["$system"] = "message"
    else:
        blocks, hints = parse_content(content, fields.at("content"))
    extra = extra_of(FORMAT_ID, {**fields.rest, **hints})
    return Message(role=ROLES[role], content=blocks, extra=extra)


def _parse_system(raw: JSON, path: str) -> Message:
    blocks, hints = _system_content(raw, path)
    return Message(role="system", content=blocks, extra=extra_of(FORMAT_ID, hints))


def _system_content(raw: JSON, path: str) -> tuple[list[Any], dict[str, Any]]:
    """A system prompt: a string or text blocks only."""
    if isinstance(raw, str):
        return [TextBlock(text=raw)], {"$content": "string"}
    if not isinstance(raw, list):
        raise FormatError("a system prompt is a string or an array of text blocks", field=path)
    blocks, opaque = parse_block_list(raw, path, ("text",))
    if opaque:
        raise FormatError(
            "a system prompt holds text blocks only", field=f"{path}[{opaque[0]['at']}]"
        )
    return blocks, {"$content": "blocks"}


def _parse_tool(raw: JSON, path: str) -> Tool:
    """A tool definition; server tools (``type`` like ``web_search_20250305``) have no
    ``input_schema`` and keep everything but their name in extra."""
    fields = AnthropicFields(raw, path)
    name = fields.string("name", required=True)
    description = fields.string("description")
    schema = fields.mapping("input_schema")
    return Tool(
        name=name or "",
        description=description,
        parameters=schema,
        extra=extra_of(FORMAT_ID, fields.rest),
    )


def _parse_tool_choice(raw: dict[str, Any], path: str) -> ToolChoice:
    fields = AnthropicFields(raw, path)
    kind = fields.string("type", required=True)
    if kind not in _TOOL_CHOICES:
        raise FormatError(f"unknown tool_choice type {kind!r}", field=fields.at("type"))
    name = fields.string("name", required=True) if kind == "tool" else None
    return ToolChoice(type=_TOOL_CHOICES[kind], name=name, extra=extra_of(FORMAT_ID, fields.rest))  # type: ignore[arg-type]


def _parse_parameters(fields: Fields) -> Parameters:
    stop = stop_sequences(fields, "stop_sequences")
    return Parameters(
        model=fields.string("model"),
        max_tokens=fields.integer("max_tokens"),
        temperature=fields.number("temperature"),
        top_p=fields.number("top_p"),
        top_k=fields.integer("top_k"),
        stop=stop,
        stream=fields.boolean("stream"),
        user=_metadata_user(fields),
    )


def _metadata_user(fields: Fields) -> str | None:
    """``metadata.user_id`` as the UMF ``user``; the rest of ``metadata`` stays in extra."""
    metadata = fields.mapping("metadata")
    if metadata is None:
        return None
    user = metadata.get("user_id")
    rest = dict(metadata)
    if isinstance(user, str):
        del rest["user_id"]
    fields.rest["metadata"] = rest
    return user if isinstance(user, str) else None


def parse_response(raw: JSON, path: str) -> Message:
    """A response Message as the last assistant message: stop reason and usage normalised,
    response-level fields (``type``, ``stop_sequence``, ``stop_details``...) in extra."""
    fields = AnthropicFields(raw, path)
    role = fields.string("role", required=True)
    if role != "assistant":
        raise FormatError("a response message has role 'assistant'", field=fields.at("role"))
    content = fields.array("content", required=True)
    blocks, hints = parse_content(content, fields.at("content"))
    stop_reason = fields.string("stop_reason")
    usage = fields.mapping("usage")
    return Message(
        role="assistant",
        content=blocks,
        id=fields.string("id"),
        model=fields.string("model"),
        finish_reason=FINISH_REASONS.get(stop_reason) if stop_reason else None,
        provider_finish_reason=stop_reason,
        usage=parse_usage(usage, fields.at("usage")) if usage is not None else None,
        extra=extra_of(FORMAT_ID, {**fields.rest, **hints, "$response": True}),
    )


def parse_usage(raw: dict[str, Any], path: str) -> Usage:
    """Anthropic usage in UMF's (OpenAI's) meaning: ``input_tokens`` excludes cache reads
    and writes, UMF ``prompt_tokens`` includes them. ``raw`` keeps the object as sent."""
    counts = AnthropicFields(raw, path)
    usage = cached_usage(raw, counts, USAGE_NAMES)
    details = counts.mapping("output_tokens_details")
    if details:
        fields = AnthropicFields(details, at(path, "output_tokens_details"))
        usage.reasoning_tokens = fields.integer("thinking_tokens")
    return usage

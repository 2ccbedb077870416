"""Bedrock Converse payloads -> one UMF conversation.

Shapes (recorded as the conversation hint ``$shape``): ``request`` (a Converse request as
boto3 takes it, ``modelId`` included, or as the HTTP body, without it), ``messages`` (a bare
message list), ``exchange`` (``{"request", "response"}``, the response's message becoming the
last assistant message, marked ``$response``) and ``response`` (a bare Converse response).
"""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.parse import cached_usage, parse_id_paired, stop_sequences
from providers.formats._kit.extra import extra_of
from providers.formats._kit.fields import Fields, union_member
from providers.formats._kit.paths import at
from providers.formats.base import FormatError, ParseResult
from providers.formats.bedrock_converse._constants import FINISH_REASONS, FORMAT_ID, USAGE_NAMES
from providers.formats.bedrock_converse._parse_blocks import opaque_hint, parse_block_list
from providers.umf import (
    JSON,
    Conversation,
    Message,
    Parameters,
    Tool,
    ToolChoice,
    Usage,
)

_ROLES = ("user", "assistant", "system")
_TOOL_CHOICES: dict[str, Any] = {"auto": "auto", "any": "required", "tool": "tool"}


def parse(payload: JSON) -> list[ParseResult]:
    """Read one Converse payload (request, message list, exchange or response) as one
    conversation. Raises :class:`FormatError` naming the field for anything that is not."""
    return parse_id_paired(
        payload,
        FORMAT_ID,
        parse_message,
        request=parse_request,
        response=parse_response,
        is_request=lambda raw: "messages" in raw,
        is_response=lambda raw: "output" in raw,
        expected=(
            "not a Bedrock Converse payload: expected a request with 'messages', a message "
            "list, a {'request', 'response'} exchange or a response with 'output'"
        ),
        answered=_answered,
    )


def _answered(conversation: Conversation, answer: Message) -> None:
    # Bedrock answers carry no model name: the request's model id is the one that answered.
    answer.model = conversation.parameters.model


def parse_request(raw: JSON, path: str) -> Conversation:
    """A Converse request; members UMF has no name for (``guardrailConfig``,
    ``additionalModelRequestFields``...) go to the conversation's extra verbatim."""
    fields = Fields(raw, path)
    raw_messages = fields.array("messages", required=True) or []
    messages = [
        parse_message(m, f"{fields.at('messages')}[{i}]") for i, m in enumerate(raw_messages)
    ]
    system = fields.array("system")
    hints: dict[str, Any] = {}
    if system is not None:
        messages.insert(0, _parse_system(system, fields.at("system")))
    parameters = _parse_inference(fields, hints)
    parameters.model = fields.string("modelId")
    tools, tool_choice = _parse_tool_config(fields, hints)
    return Conversation(
        messages=messages,
        tools=tools,
        tool_choice=tool_choice,
        parameters=parameters,
        extra=extra_of(FORMAT_ID, {**fields.rest, **hints}),
    )


def parse_message(raw: JSON, path: str) -> Message:
    """One entry of ``messages``: role ``user``, ``assistant`` or ``system`` (botocore's
    in-conversation system message, hinted ``$system: message``)."""
    fields = Fields(raw, path)
    role = fields.string("role", required=True)
    if role not in _ROLES:
        raise FormatError(
            f"unknown role {role!r}; expected one of {', '.join(_ROLES)}", field=fields.at("role")
        )
    content = fields.array("content", required=True)
    where = "system" if role == "system" else "message"
    blocks, opaque = parse_block_list(content, fields.at("content"), where)
    hints = opaque_hint(opaque)
    if role == "system":
        hints["$system"] = "message"
    return Message(role=role, content=blocks, extra=extra_of(FORMAT_ID, {**fields.rest, **hints}))  # type: ignore[arg-type]


def _parse_system(raw: list[Any], path: str) -> Message:
    blocks, opaque = parse_block_list(raw, path, "system")
    return Message(role="system", content=blocks, extra=extra_of(FORMAT_ID, opaque_hint(opaque)))


def _parse_inference(fields: Fields, hints: dict[str, Any]) -> Parameters:
    """``inferenceConfig``; its other members stay in the hint ``$inferenceConfig`` (whose
    presence also says that the object was there)."""
    raw = fields.mapping("inferenceConfig")
    if raw is None:
        return Parameters()
    config = Fields(raw, fields.at("inferenceConfig"))
    stop = stop_sequences(config, "stopSequences")
    parameters = Parameters(
        max_tokens=config.integer("maxTokens"),
        temperature=config.number("temperature"),
        top_p=config.number("topP"),
        stop=stop,
    )
    hints["$inferenceConfig"] = config.rest
    return parameters


def _parse_tool_config(
    fields: Fields, hints: dict[str, Any]
) -> tuple[list[Tool], ToolChoice | None]:
    """``toolConfig``: ``toolSpec`` entries become UMF tools; other entries (``cachePoint``,
    ``systemTool``) stay in place in the hint ``$toolConfig``, with its other members."""
    raw = fields.mapping("toolConfig")
    if raw is None:
        return [], None
    config = Fields(raw, fields.at("toolConfig"))
    tools: list[Tool] = []
    opaque: list[dict[str, Any]] = []
    for index, entry in enumerate(config.array("tools", required=True) or []):
        entry_path = f"{config.at('tools')}[{index}]"
        name, value = union_member(entry, entry_path, None)
        if name == "toolSpec":
            tools.append(_parse_tool_spec(value, at(entry_path, name)))
        else:
            opaque.append({"at": index, "tool": entry})
    choice = config.mapping("toolChoice")
    tool_choice = (
        _parse_tool_choice(choice, config.at("toolChoice")) if choice is not None else None
    )
    hints["$toolConfig"] = {**config.rest, **({"$opaque": opaque} if opaque else {})}
    return tools, tool_choice


def _parse_tool_spec(raw: JSON, path: str) -> Tool:
    spec = Fields(raw, path)
    name = spec.string("name", required=True) or ""
    description = spec.string("description")
    schema_path = spec.at("inputSchema")
    member, schema = union_member(spec.mapping("inputSchema", required=True), schema_path, None)
    if member != "json" or not isinstance(schema, dict):
        raise FormatError("inputSchema is {'json': <JSON Schema object>}", field=schema_path)
    return Tool(
        name=name, description=description, parameters=schema, extra=extra_of(FORMAT_ID, spec.rest)
    )


def _parse_tool_choice(raw: dict[str, Any], path: str) -> ToolChoice:
    kind, value = union_member(raw, path, frozenset(_TOOL_CHOICES))
    inner = Fields(value, at(path, kind))
    name = inner.string("name", required=True) if kind == "tool" else None
    return ToolChoice(type=_TOOL_CHOICES[kind], name=name, extra=extra_of(FORMAT_ID, inner.rest))


def parse_response(raw: JSON, path: str) -> Message:
    """A Converse response as the last assistant message: ``stopReason`` and ``usage``
    normalised, the other response members (``metrics``, ``trace``, ``ResponseMetadata``...)
    in the message's extra, the message's own unknown fields in ``$message_fields``."""
    fields = Fields(raw, path)
    output = Fields(fields.mapping("output", required=True), fields.at("output"))
    message = parse_message(output.mapping("message", required=True), output.at("message"))
    if message.role != "assistant":
        raise FormatError("a response message has role 'assistant'", field=output.at("message"))
    stop_reason = fields.string("stopReason")
    usage = fields.mapping("usage")
    own = message.extra.get(FORMAT_ID, {})
    hints = {key: value for key, value in own.items() if key.startswith("$")}
    message_fields = {key: value for key, value in own.items() if not key.startswith("$")}
    hints.update({"$response": True})
    if message_fields:
        hints["$message_fields"] = message_fields
    if output.rest:
        hints["$output_fields"] = output.rest
    message.extra = extra_of(FORMAT_ID, {**fields.rest, **hints})
    message.finish_reason = FINISH_REASONS.get(stop_reason) if stop_reason else None
    message.provider_finish_reason = stop_reason
    message.usage = parse_usage(usage, fields.at("usage")) if usage is not None else None
    return message


def parse_usage(raw: dict[str, Any], path: str) -> Usage:
    """Bedrock usage in UMF's (OpenAI's) meaning: ``inputTokens`` leaves out cache reads and
    writes, UMF ``prompt_tokens`` includes them. ``raw`` keeps the object as sent."""
    return cached_usage(raw, Fields(raw, path), USAGE_NAMES)

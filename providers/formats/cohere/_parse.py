"""Reading whole payloads: a request body, a bare message list, a logged exchange and a
bare response (``V2ChatResponse``), in the family's shapes
(:mod:`providers.formats._chat_completions.shape`).

The request's fields UMF has no name for (``documents``, ``citation_options``,
``response_format``, ``safety_mode``, ``strict_tools``, ``thinking``...) stay verbatim in
the conversation's ``extra``. A response's message becomes an assistant message with the
response ``id``, the normalised ``finish_reason`` (raw in ``provider_finish_reason``) and
``usage`` (raw in ``usage.raw``); the response's other fields (``logprobs``...) are its
``$response`` hint. In an exchange the answer's model is the request's.

Messages:

* ``content`` becomes blocks; how it was spelled (string, parts, null, absent) is the
  ``$content`` hint, written only when the renderer's default would spell it otherwise.
* An assistant's ``tool_plan`` becomes a text block marked ``$field: tool_plan`` after the
  content, its ``tool_calls`` tool-use blocks (``raw_arguments`` is the exact string), its
  ``citations`` the citations of its first content text block (marked ``$citations``).
* ``tool`` messages become role ``tool`` with one tool-result block named after its call.
* Parts: a part's own unknown fields stay on the block verbatim; the unknown fields of its
  inner object (``image_url``, ``document``) under ``$inner``. ``$uri`` keeps a data URI the
  block's source would not spell the same way; ``$id`` a document's id. A document's
  ``data`` becomes a text source: JSON text (``application/json``) for an object, the
  string itself (``text/plain``) when the API was sent a string.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import orjson

from providers.formats._chat_completions.blocks import ParseState, image_part_reader, read_tool
from providers.formats._chat_completions.calls import call_reader
from providers.formats._chat_completions.content import content_hint, read_content
from providers.formats._chat_completions.shape import (
    Readers,
    RequestReaders,
    has_field,
    read_list,
    read_request,
    read_shape,
)
from providers.formats._kit.fields import (
    require_list,
    require_mapping,
    require_str,
    split,
    umf_checked,
)
from providers.formats._kit.paths import at, item, require
from providers.formats.base import FormatError, ParseResult
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    MediaSource,
    Message,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
    Usage,
)

from ._constants import FINISH_REASONS, JSON_TEXT, NS, PARAMETERS, PART_TYPES, ROLES

# --------------------------------------------------------------------------- messages


def parse_message(raw: JSON, path: str, state: ParseState) -> Message:
    """One message; :class:`FormatError` naming the field when it is not a valid one."""
    source = require_mapping(raw, path)
    role = source.get("role")
    if not isinstance(role, str) or role not in ROLES:
        raise FormatError(f"role must be one of {', '.join(ROLES)}", field=at(path, "role"))
    if role == "tool":
        return _parse_tool(source, path, state)
    if role == "assistant":
        return _parse_assistant(source, path, state)
    _, rest = split(source, (), handled=("role", "content"), path=path)
    blocks, parts, kind = _read(source, path, role)
    hint = content_hint(parts, role, kind)
    return Message(role=role, content=blocks, extra=NS.extra(rest, content=hint))  # type: ignore[arg-type]  # checked against ROLES


def _read(source: dict[str, Any], path: str, role: str) -> tuple[list[Block], list[Any], str]:
    return read_content(source, path, lambda part, part_path: parse_part(part, part_path, role))


def _parse_assistant(source: dict[str, Any], path: str, state: ParseState) -> Message:
    fields, rest = split(
        source, ("tool_calls", "tool_plan", "citations"), handled=("role", "content"), path=path
    )
    if fields.get("tool_calls") == []:
        rest["tool_calls"] = fields.pop("tool_calls")  # UMF has no "an empty list was sent"
    blocks, parts, kind = _read(source, path, "assistant")
    plan: list[Block] = []
    if "tool_plan" in fields:
        text = require_str(fields["tool_plan"], at(path, "tool_plan"))
        plan.append(TextBlock(text=text, extra=NS.extra({}, field="tool_plan")))
    calls_path = at(path, "tool_calls")
    raw_calls = require_list(fields["tool_calls"], calls_path) if "tool_calls" in fields else []
    calls = [
        _read_call(call, item(calls_path, i), state.call_names) for i, call in enumerate(raw_calls)
    ]
    if "citations" in fields and not _attach_citations(blocks, fields["citations"]):
        rest["citations"] = fields["citations"]
    hint = content_hint(parts, "assistant", kind)
    return Message(
        role="assistant", content=[*blocks, *plan, *calls], extra=NS.extra(rest, content=hint)
    )


def _attach_citations(blocks: list[Block], citations: JSON) -> bool:
    # Citations point into the message's text: they ride on its first text block.
    if not isinstance(citations, list) or not all(isinstance(c, dict) for c in citations):
        return False
    for block in blocks:
        if isinstance(block, TextBlock):
            block.citations = citations
            NS.add_hints(block.extra, citations="message")
            return True
    return False


def _parse_tool(source: dict[str, Any], path: str, state: ParseState) -> Message:
    fields, rest = split(source, ("tool_call_id",), handled=("role", "content"), path=path)
    if "tool_call_id" not in fields:
        raise FormatError("a tool message needs tool_call_id", field=at(path, "tool_call_id"))
    call_id = require_str(fields["tool_call_id"], at(path, "tool_call_id"))
    content: str | list[Block] = ""
    kind = None
    if "content" not in source or source["content"] is None:
        kind = "absent" if "content" not in source else "null"
    elif isinstance(source["content"], str):
        content = source["content"]
    else:
        blocks, _, _ = _read(source, path, "tool")
        content = blocks
    block = ToolResultBlock(
        tool_use_id=call_id, content=content, name=state.call_names.get(call_id)
    )
    return Message(
        role="tool", content=[block], tool_call_id=call_id, extra=NS.extra(rest, content=kind)
    )


# --------------------------------------------------------------------------- parts


def parse_part(raw: JSON, path: str, role: str) -> Block:
    """One content part of a ``role`` message; :class:`FormatError` for anything else."""
    part = require_mapping(raw, path)
    kind = part.get("type")
    allowed = PART_TYPES[role]
    if kind not in allowed:
        raise FormatError(
            f"a {role} content part has type {', '.join(allowed)}", field=at(path, "type")
        )
    if kind == "image_url":
        return _read_image(part, path)
    if kind == "document":
        return _parse_document(part, path)
    key = "thinking" if kind == "thinking" else "text"
    text = require_str(part.get(key), at(path, key))
    _, rest = split(part, (), handled=("type", key), path=path)
    if kind == "thinking":
        return ThinkingBlock(text=text, provider=NS.format_id, extra=NS.extra(rest))
    return TextBlock(text=text, extra=NS.extra(rest))


def _parse_document(part: dict[str, Any], path: str) -> Block:
    inner_path = at(path, "document")
    inner = require_mapping(part.get("document"), inner_path)
    source, title = document_source(inner.get("data"), at(inner_path, "data"))
    fields, rest = split(inner, ("id",), handled=("data",), path=inner_path)
    doc_id = require_str(fields["id"], at(inner_path, "id")) if fields else None
    _, outer = split(part, (), handled=("type", "document"), path=path)
    return DocumentBlock(
        source=source, title=title, extra=NS.extra(outer, inner=rest or None, id=doc_id)
    )


_read_image = image_part_reader(NS)
_read_call = call_reader(NS)


def document_source(data: JSON, path: str) -> tuple[MediaSource, str | None]:
    """A document's ``data`` (an object, or a string) as a text source, and its title."""
    if isinstance(data, str):
        return MediaSource(type="text", media_type="text/plain", data=data), None
    mapping = require(data, lambda v: isinstance(v, dict), "an object or a string", path)
    try:
        text = orjson.dumps(mapping).decode()
    except orjson.JSONEncodeError:
        raise FormatError("document data holds a number too large", field=path) from None
    title = mapping.get("title")
    return MediaSource(type="text", media_type=JSON_TEXT, data=text), (
        title if isinstance(title, str) else None
    )


# --------------------------------------------------------------------------- payloads


_TOOL_CHOICES = {"REQUIRED": "required", "NONE": "none"}


def parse(payload: JSON) -> list[ParseResult]:
    """Read one Cohere payload (request, message list, exchange or response) as one
    conversation. Raises :class:`FormatError` naming the field for anything that is not."""
    with umf_checked():
        return [ParseResult(read_shape(payload, _READERS, ParseState()))]


def _parse_tools(raw: JSON, path: str) -> tuple[list[Tool], dict[str, Any]]:
    tools = []
    for index, entry in enumerate(require_list(raw, path)):
        tool = require_mapping(entry, item(path, index))
        if tool.get("type", "function") != "function":
            raise FormatError("tool type must be function", field=at(item(path, index), "type"))
        tools.append(read_tool(tool, item(path, index), NS))
    return tools, {}


def _parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    if not isinstance(raw, str) or raw not in _TOOL_CHOICES:
        raise FormatError("tool_choice must be REQUIRED or NONE", field=path)
    return ToolChoice(type=_TOOL_CHOICES[raw])  # type: ignore[arg-type]  # the table's values


_MESSAGES = partial(read_list, read_one=parse_message)
_REQUEST = RequestReaders(NS, PARAMETERS, _MESSAGES, _parse_tools, _parse_tool_choice)


def parse_response(raw: JSON, base: str, state: ParseState) -> Message:
    """The assistant message of a response (``base`` is where the response is)."""
    response = require_mapping(raw, base or "payload")
    fields, rest = split(
        response, ("id", "finish_reason", "usage"), handled=("message",), path=base
    )
    message_path = at(base, "message")
    source = require_mapping(response.get("message"), message_path)
    if source.get("role") != "assistant":
        raise FormatError("a response message has role assistant", field=at(message_path, "role"))
    message = parse_message(source, message_path, state)
    if "id" in fields:
        message.id = require_str(fields["id"], at(base, "id"))
    if "finish_reason" in fields:
        reason = require_str(fields["finish_reason"], at(base, "finish_reason"))
        message.provider_finish_reason = reason
        message.finish_reason = FINISH_REASONS.get(reason)
    if "usage" in fields:
        message.usage = parse_usage(fields["usage"], at(base, "usage"))
    NS.add_hints(message.extra, response=rest or None)
    return message


_READERS = Readers(
    NS,
    _MESSAGES,
    partial(read_request, readers=_REQUEST),
    parse_response,
    has_field("message"),
    refusal="not a Cohere v2 chat payload: expected messages, a response message, "
    "or a request and a response",
    answer_model=True,
)


def parse_usage(raw: JSON, path: str) -> Usage:
    """``usage`` normalised (prompt includes cached tokens); ``tokens`` counts win over
    ``billed_units``; counts of the wrong type are left out (``raw`` keeps them)."""
    usage = require_mapping(raw, path)
    tokens = _mapping(usage.get("tokens"))
    billed = _mapping(usage.get("billed_units"))
    source = tokens if {"input_tokens", "output_tokens"} & tokens.keys() else billed
    prompt, completion = _count(source, "input_tokens"), _count(source, "output_tokens")
    total = prompt + completion if prompt is not None and completion is not None else None
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=completion,
        total_tokens=total,
        cached_tokens=_count(usage, "cached_tokens"),
        raw=dict(usage),
    )


def _mapping(value: JSON) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _count(source: dict[str, Any], key: str) -> int | None:
    # The API documents the counts as numbers (the SDK types them float); whole ones count.
    value = source.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or abs(value) >= 2**63:
        return None
    return int(value) if float(value).is_integer() else None

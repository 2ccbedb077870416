"""Reading one Ollama message: ``role``, ``content`` (a string), ``thinking``, ``images``,
``tool_calls`` and, on tool messages, ``tool_name`` / ``tool_call_id``.

Blocks come in a fixed order (thinking, text or the tool result, images, tool calls): the
wire keeps them in separate fields, so there is no order to lose. Ollama often sends no
tool-call ids: a call without one gets ``call_<message>_<call>`` and a result without
``tool_call_id`` answers the earliest unanswered call with its ``tool_name`` (else the
earliest unanswered call), each with an ``id-synthesized`` warning. A result that answers
no earlier call (none open, or an unknown ``tool_call_id``) is kept as the tool message's
text, since a UMF result always answers a call. Hints say what render must leave out
(``$id: synthesized`` on a call, ``$tool_call_id: inferred | absent`` and ``$tool_name:
inferred`` on a tool message), and ``$content: absent`` marks a message sent without
``content``.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from providers.formats._kit.fields import Fields
from providers.formats._kit.ids import report_synthesized
from providers.formats._kit.paths import item
from providers.formats._kit.wire import is_base64
from providers.formats.base import FormatError
from providers.umf import (
    Block,
    ImageBlock,
    MediaSource,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import FORMAT_ID, NS, ROLES
from ._rules import ParseState, find_call


def parse_message(raw: Any, path: str, state: ParseState) -> Message:
    """One entry of ``messages`` (or a response's ``message``)."""
    fields = Fields(raw, path)
    role = fields.string("role", required=True)
    if role not in ROLES:
        raise FormatError(
            f"unknown role {role!r}; expected one of {', '.join(ROLES)}", field=fields.at("role")
        )
    hints: dict[str, Any] = {} if "content" in fields.rest else {"content": "absent"}
    content = fields.string("content")
    blocks: list[Block] = []
    thinking = _text_field(fields, "thinking")
    if thinking:
        blocks.append(ThinkingBlock(text=thinking, provider=FORMAT_ID))
    message = Message(role=role)  # type: ignore[arg-type]
    if role == "tool":
        blocks.extend(_tool_result(fields, content or "", message, hints, state))
    elif content:
        blocks.append(TextBlock(text=content))
    images = _list_field(fields, "images")
    blocks.extend(
        parse_image(image, item(fields.at("images"), i)) for i, image in enumerate(images)
    )
    calls = _list_field(fields, "tool_calls")
    blocks.extend(
        _parse_call(call, item(fields.at("tool_calls"), i), i, state)
        for i, call in enumerate(calls)
    )
    state.position += 1
    message.content = blocks
    message.extra = NS.extra(fields.rest, **hints)
    return message


def _text_field(fields: Fields, key: str) -> str | None:
    value = fields.string(key)
    if value == "":
        fields.rest[key] = value  # no block for nothing; the empty string comes back verbatim
    return value


def _list_field(fields: Fields, key: str) -> list[Any]:
    value = fields.array(key)
    if value == []:
        fields.rest[key] = value
    return value or []


def _parse_call(raw: Any, path: str, number: int, state: ParseState) -> ToolUseBlock:
    """``{"id"?, "function": {"index"?, "name", "arguments": object}}``; the function's
    other fields are kept in the ``$function`` hint, the call's beside it."""
    call = Fields(raw, path)
    function = Fields(call.mapping("function", required=True), call.at("function"))
    name = function.string("name", required=True) or ""
    arguments = function.mapping("arguments", required=True)
    call_id = call.string("id")
    synthesized = call_id is None
    if call_id is None:
        call_id = state.unique(f"call_{state.position}_{number}")
        report_synthesized(
            state.drift,
            "Ollama sent this tool call without an id; one was made up",
            call.at("id"),
            call_id,
        )
    else:
        state.used.add(call_id)
    state.pending.append((call_id, name))
    extra = NS.extra(
        call.rest,
        function=function.rest or None,
        id="synthesized" if synthesized else None,
    )
    return ToolUseBlock(id=call_id, name=name, input=arguments, extra=extra)


def _tool_result(
    fields: Fields, content: str, message: Message, hints: dict[str, Any], state: ParseState
) -> list[Block]:
    """A tool message's result, paired with the call it answers (by id when given, else
    by tool name and order). A result that answers no earlier call is kept as the tool
    message's text: UMF results always answer a call."""
    tool_name = fields.string("tool_name")
    given_id = fields.string("tool_call_id")
    message.name = tool_name
    paired = find_call(given_id, tool_name, fields.at("tool_call_id"), state)
    if paired is None:
        if given_id is not None:
            fields.rest["tool_call_id"] = given_id
        hints["tool_call_id"] = "absent"
        state.drift.add(
            "content-type-unsupported",
            "the tool result answers no earlier call; kept as the tool message's text",
            field=fields.path,
            original="tool_result",
            transformed="text",
            severity="info",
        )
        return [TextBlock(text=content)] if content else []
    call_id, name = paired
    name = name if tool_name is None else tool_name  # the result's own word wins
    if given_id is None:
        hints["tool_call_id"] = "inferred"
    if tool_name is None and name is not None:
        hints["tool_name"] = "inferred"
    message.tool_call_id = call_id
    return [ToolResultBlock(tool_use_id=call_id, content=content, name=name)]


# --------------------------------------------------------------------------- images

# Enough base64 characters to hold the 12 bytes the longest signature (WebP) needs.
_PREFIX_CHARS = 16
_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"WEBP", 8, "image/webp"),
)


def sniff_media_type(data: str) -> str | None:
    """The image media type the base64 ``data`` starts with, or None when unknown."""
    try:
        head = base64.b64decode(data[:_PREFIX_CHARS], validate=True)
    except (binascii.Error, ValueError):
        return None
    for signature, offset, media_type in _SIGNATURES:
        riff = media_type != "image/webp" or head.startswith(b"RIFF")
        if head[offset : offset + len(signature)] == signature and riff:
            return media_type
    return None


def parse_image(value: Any, path: str) -> ImageBlock:
    """One entry of ``images``: a base64 string."""
    if not isinstance(value, str) or not is_base64(value):
        raise FormatError("an image is a base64 string", field=path)
    media_type = sniff_media_type(value)
    extra = {FORMAT_ID: {"$sniffed": True}} if media_type else {}
    source = MediaSource(type="base64", media_type=media_type, data=value)
    return ImageBlock(source=source, extra=extra)

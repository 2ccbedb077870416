"""Blocks, media and tool definitions as the chat-completions formats read and write them,
and media as the OpenAI APIs (``openai-chat``, ``openai-responses``) take it: base64 data as
a ``data:`` URI (or, for a file's ``file_data``, bare base64), OpenAI's own file ids, and
the filename a file wants beside its data."""

from __future__ import annotations

import mimetypes
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any, TypeVar

from providers.formats._chat_completions.turns import Turn
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import (
    report_block_dropped,
    report_defaulted,
    report_field_dropped,
    report_foreign_extra,
    report_thinking_dropped,
)
from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import require_mapping, require_str, split, unknown_fields
from providers.formats._kit.paths import at
from providers.formats._kit.thread import one_thread
from providers.formats._kit.wire import (
    data_uri,
    empty_object_schema,
    parse_data_uri,
    tool_definition,
)
from providers.umf import (
    JSON,
    Block,
    Conversation,
    DocumentBlock,
    Extra,
    ImageBlock,
    MediaSource,
    Message,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
)

Ctx = TypeVar("Ctx", bound=Context)


@dataclass
class ParseState:
    """What reading one payload's messages remembers: the name of each call by id, so
    that tool results (which carry only the id) know the tool's name."""

    call_names: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------- media


def source_from_url(url: str) -> tuple[MediaSource, str | None]:
    """A URL or data URI as a source, and the URI itself when the source would not spell
    it the same way again (extra parameters, no media type): the ``$uri`` hint."""
    return base64_source(url) or (MediaSource(type="url", url=url), None)


def read_image_url(
    inner: dict[str, Any], path: str
) -> tuple[MediaSource, str | None, str | None, dict[str, Any]]:
    """An ``image_url`` object (``{"url", "detail"}``, at ``path``) as read: its source,
    its detail, its ``$uri`` hint (see :func:`source_from_url`) and its other fields."""
    url = require_str(inner.get("url"), at(path, "url"))
    fields, rest = split(inner, ("detail",), handled=("url",), path=path)
    detail = require_str(fields["detail"], at(path, "detail")) if fields else None
    source, uri = source_from_url(url)
    return source, detail, uri, rest


def image_part_reader(ns: Namespace) -> Callable[[dict[str, Any], str], ImageBlock]:
    """The reader of an ``{"type": "image_url", "image_url": {...}}`` part (at ``path``) as
    an image block: the part's other fields verbatim, the inner object's under ``$inner``.
    Built once per format, so that reading a part costs no call more than its checks."""

    def read_image_part(part: dict[str, Any], path: str) -> ImageBlock:
        inner_path = at(path, "image_url")
        inner = require_mapping(part.get("image_url"), inner_path)
        source, detail, uri, rest = read_image_url(inner, inner_path)
        outer = unknown_fields(part, ("type", "image_url"), path=path)
        return ImageBlock(
            source=source, detail=detail, extra=ns.extra(outer, inner=rest or None, uri=uri)
        )

    return read_image_part


def media_uri(source: MediaSource, extra: Extra, ns: Namespace) -> str | None:
    """The URL or data URI that carries ``source``, spelled as it was read when it was."""
    if source.type == "url":
        return source.url
    if source.type != "base64" or source.data is None:
        return None
    original = ns.hint(extra, "uri")
    if isinstance(original, str) and same_bytes(original, source):  # most have no hint
        return original
    return data_uri(source.media_type, source.data)


def same_bytes(original: Any, source: MediaSource) -> bool:
    """Whether ``original`` (a kept ``$uri`` hint) still spells ``source``'s bytes: a data
    URI of the same media type and data, or that bare base64 data itself."""
    if not isinstance(original, str):
        return False
    parsed = parse_data_uri(original)
    if parsed is None:
        return original == source.data
    return parsed == (source.media_type, source.data)


def image_url(
    block: ImageBlock, path: str, ctx: Context, ns: Namespace, details: Collection[str] = ()
) -> dict[str, Any] | None:
    """The ``image_url`` object (``{url, detail?}`` and its kept fields) for an image, or
    None, warned, when its source is neither a URL nor base64 data. With ``details``, a
    converted image's detail outside them is left out with a note."""
    url = media_uri(block.source, block.extra, ns)
    if url is None:
        report_block_dropped(
            block, path, ctx.drift, f"{ctx.label} takes images only as a URL or base64 data"
        )
        return None
    inner: dict[str, Any] = {"url": url}
    if block.detail is not None and (not details or ctx.faithful or block.detail in details):
        inner["detail"] = block.detail
    elif block.detail is not None:
        why = f"{ctx.label} image detail is one of {', '.join(details)}"
        report_field_dropped(path, "detail", block.detail, ctx.drift, why)
    return ns.put(inner, block.extra, "inner")


def image_part(
    block: ImageBlock, path: str, ctx: Context, ns: Namespace, details: Collection[str] = ()
) -> dict[str, Any] | None:
    """An ``image_url`` part holding :func:`image_url`'s object, or None (warned)."""
    inner = image_url(block, path, ctx, ns, details)
    return None if inner is None else ns.put({"type": "image_url", "image_url": inner}, block.extra)


def result_part(
    block: Block,
    path: str,
    ctx: Ctx,
    render_part: Callable[[Block, str, Ctx, str], dict[str, Any] | None],
    no_reasoning: str,
) -> dict[str, Any] | None:
    """A block inside a tool result as the content part ``render_part`` makes of it, or
    None: reasoning is left out (``no_reasoning`` says why), and so are tool calls and
    results, which a tool result cannot hold."""
    if isinstance(block, ThinkingBlock):
        report_thinking_dropped(block, path, ctx.drift, no_reasoning)
        return None
    if isinstance(block, ToolUseBlock | ToolResultBlock):
        ctx.drift.add(
            "content-dropped",
            "a tool result cannot hold tool calls or results",
            field=path,
            original=block.type,
        )
        return None
    return render_part(block, path, ctx, "tool")


def sendable(parts: list[dict[str, Any]]) -> bool:
    """Whether content parts say anything (empty text parts do not)."""
    return any(part.get("type") != "text" or part.get("text") for part in parts)


def leave_out_empty(turn: Turn, ctx: Context) -> None:
    """Note that a converted message with nothing to send is left out; when its blocks
    were dropped, their own warnings already say so."""
    if all(isinstance(entry.block, TextBlock) and not entry.block.text for entry in turn.blocks):
        ctx.drift.add(
            "content-dropped",
            "an empty message is left out",
            field=turn.path,
            original=turn.role,
            severity="info",
        )


# --------------------------------------------------------------------------- tools


def read_tool(tool: dict[str, Any], path: str, ns: Namespace) -> Tool:
    """A ``{"type": "function", "function": {...}}`` definition (type already checked).
    Unknown function fields stay on the tool, those beside ``function`` under ``$outer``."""
    function_path = at(path, "function")
    function = require_mapping(tool.get("function"), function_path)
    name = require_str(function.get("name"), at(function_path, "name"))
    fields, rest = split(
        function, ("description", "parameters"), handled=("name",), path=function_path
    )
    description = None
    if "description" in fields:
        description = require_str(fields["description"], at(function_path, "description"))
    parameters = None
    if "parameters" in fields:
        parameters = require_mapping(fields["parameters"], at(function_path, "parameters"))
    _, outer = split(tool, (), handled=("type", "function"), path=path)
    type_hint = "absent" if "type" not in tool else None
    return Tool(
        name=name,
        description=description,
        parameters=parameters,
        extra=ns.extra(rest, outer=outer or None, type=type_hint),
    )


def write_tool(tool: Tool, path: str, ctx: Context) -> dict[str, Any]:
    """A function tool definition; one from elsewhere without parameters gets an empty
    object schema (both APIs require one): ``parameter-defaulted`` (info)."""
    report_foreign_extra(tool.extra, path, ctx)
    function = tool_definition(tool)
    if tool.parameters is None and not ctx.faithful:
        function["parameters"] = schema = empty_object_schema()
        report_defaulted(
            at(path, "parameters"),
            schema,
            ctx.drift,
            f"{ctx.label} tools need parameters; an empty object schema was used",
        )
    out: dict[str, Any] = {"type": "function", "function": ctx.ns.put(function, tool.extra)}
    if ctx.ns.hint(tool.extra, "type") == "absent" and ctx.faithful:
        del out["type"]
    return ctx.ns.put(out, tool.extra, "outer")


# --------------------------------------------------------------------------- shapes


def thread(
    conversation: Conversation,
    ctx: Context,
    original: Callable[[Message], JSON] = lambda message: message.id,
) -> list[tuple[int, Message]]:
    """The messages to write with their indexes: one path when the conversation is a
    tree, the others ``content-dropped`` (``original`` says what a warning names)."""
    return one_thread(conversation, ctx.drift, f"{ctx.label} takes one thread", original)


def take_answer(
    messages: list[tuple[int, Message]],
    shape: Any,
    is_answer: Callable[[Message], bool] = lambda message: message.role == "assistant",
) -> tuple[tuple[int, Message] | None, Any]:
    """For an exchange or response shape, the answer (the last message, when
    ``is_answer``: an assistant's) taken off ``messages``; the shape falls back to a
    request when there is none (nothing to answer with: the request is all there is)."""
    if shape not in ("exchange", "response"):
        return None, shape
    if messages and is_answer(messages[-1][1]):
        return messages.pop(), shape
    return None, "request"


# --------------------------------------------------------------------------- OpenAI files


def base64_source(uri: str) -> tuple[MediaSource, str | None] | None:
    """A base64 source for a ``data:`` URI, with the URI itself when the source would
    not spell it the same way again (extra parameters, no media type); None for any other
    URL."""
    parsed = parse_data_uri(uri)
    if parsed is None:
        return None
    media_type, data = parsed
    source = MediaSource(type="base64", media_type=media_type, data=data)
    return source, None if data_uri(media_type, data) == uri else uri


def file_data_source(file_data: str, filename: str | None) -> tuple[MediaSource, str | None]:
    """The source of a file's ``file_data`` and the ``$uri`` hint that spells it back."""
    # file_data is a data URI in OpenAI's examples, but bare base64 is accepted too.
    found = base64_source(file_data)
    if found is not None:
        return found
    media_type = mimetypes.guess_type(filename)[0] if filename else None
    return MediaSource(type="base64", media_type=media_type, data=file_data), file_data


def openai_file_id(file_id: str | None) -> bool:
    """Whether a file id is one of OpenAI's (``file-...``); other providers' ids
    (Anthropic's ``file_...``) mean nothing to OpenAI."""
    return file_id is not None and file_id.startswith("file-")


def filename_for(block: DocumentBlock, path: str, ctx: Context, has_data: bool) -> str | None:
    """The filename of a converted file: OpenAI wants one with file data, and a title is
    the next best thing to one (``content-dropped``, info, for a title beside a filename;
    ``parameter-defaulted``, info, for one made up from the media type)."""
    filename = block.filename or block.title
    if block.title is not None and block.title != filename:
        why = f"{ctx.label} files have a filename but no title"
        report_field_dropped(path, "title", block.title, ctx.drift, why)
    if filename is None and has_data:
        extension = mimetypes.guess_extension(block.source.media_type or "") or ".bin"
        filename = f"document{extension}"
        report_defaulted(
            at(path, "filename"),
            filename,
            ctx.drift,
            f"{ctx.label} wants a filename with file data",
        )
    return filename

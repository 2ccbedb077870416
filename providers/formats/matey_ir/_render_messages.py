"""Writing UMF messages as IR messages (``IRMessage``), with a warning for each lossy step.

Content is written as a string when it is one plain text block, unless it was read as an
array. Blocks the IR has no type for are sent as text (refusals, text documents) or left
out with a warning.
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.drift import (
    report_block_as_text,
    report_block_dropped,
    report_citations_dropped,
    report_field_dropped,
    report_thinking_dropped,
)
from providers.formats._kit.paths import at, item
from providers.formats._message_lists.render import (
    ListContext,
    developer_as_system,
    input_object,
    media_type_or_default,
    plain_text,
    report_foreign,
    report_invalid_arguments,
    report_reasoning_fields,
    whole_result,
)
from providers.formats.matey_ir._constants import DEFAULT_MEDIA_TYPE, NS
from providers.umf import (
    Block,
    ImageBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

Wire = dict[str, Any]


def render_message(message: Message, index: int, ctx: ListContext) -> Wire:
    """The ``IRMessage`` for UMF message ``index``."""
    path = item("messages", index)
    report_foreign(message.extra, path, ctx)
    role: str = message.role
    if role == "developer":
        role = developer_as_system(path, ctx, "the IR")
    content: list[Wire] = []
    for block_path, block in _blocks_of(message, path):
        body = render_block(block, block_path, ctx)
        if body is not None:
            content.append(body)
    wire: Wire = {"role": role, "content": content}
    if NS.hint(message.extra, "content") != "array" and _plain_text(content):
        wire["content"] = content[0]["text"] if content else ""
    if message.name is not None:
        wire["name"] = message.name
    if message.metadata or NS.hint(message.extra, "metadata"):
        wire["metadata"] = message.metadata
    report_reasoning_fields(message, path, ctx, "IR messages")
    return NS.put(wire, message.extra)


def _plain_text(content: list[Wire]) -> bool:
    return (
        len(content) == 1 and content[0].keys() == {"type", "text"} and content[0]["type"] == "text"
    )


def _blocks_of(message: Message, path: str) -> list[tuple[str, Block]]:
    """The blocks to write with their UMF paths. A tool message holding its result as
    plain blocks (UMF's InternalMessage shape) becomes one tool_result block answering
    its ``tool_call_id``, at the message's own path (its content is the message's)."""
    whole = whole_result(message)
    if whole is not None:
        return [(path, whole)]
    return [(item(at(path, "content"), i), block) for i, block in enumerate(message.content)]


def render_block(block: Block, path: str, ctx: ListContext) -> Wire | None:
    """One IR content block, or None when the IR has no place for it (with a warning)."""
    report_foreign(block.extra, path, ctx)
    if isinstance(block, TextBlock):
        return NS.put({"type": "text", "text": _text(block, path, ctx)}, block.extra)
    if isinstance(block, ImageBlock):
        return _image(block, path, ctx)
    if isinstance(block, ToolUseBlock):
        body = {"type": "tool_use", "id": block.id, "name": block.name}
        return NS.put({**body, "input": _input(block, path, ctx)}, block.extra)
    if isinstance(block, ToolResultBlock):
        return _tool_result(block, path, ctx)
    text = plain_text(block, empty_documents=True)
    if text is not None:
        report_block_as_text(
            block, path, ctx.drift, f"the IR has no {block.type} content; sent as text"
        )
        return {"type": "text", "text": text}
    if isinstance(block, ThinkingBlock):
        report_thinking_dropped(block, path, ctx.drift, "IR messages carry no reasoning")
        return None
    report_block_dropped(block, path, ctx.drift, f"IR content has no {block.type} of this kind")
    return None


def _text(block: TextBlock, path: str, ctx: ListContext) -> str:
    if block.citations:
        report_citations_dropped(block, path, ctx.drift, "IR text carries no citations")
    return block.text


def _image(block: ImageBlock, path: str, ctx: ListContext) -> Wire | None:
    source = block.source
    if source.type == "url" and source.url is not None:
        wire: Wire = {"type": "url", "url": source.url}
    elif source.type == "base64" and source.data is not None:
        why = "an IR base64 image needs a media type"
        media_type = media_type_or_default(source, DEFAULT_MEDIA_TYPE, path, ctx, why)
        wire = {"type": "base64", "mediaType": media_type, "data": source.data}
    else:
        report_block_dropped(block, path, ctx.drift, "IR images are a URL or base64 data")
        return None
    if block.detail is not None:
        why = "IR images have no detail level"
        report_field_dropped(path, "detail", block.detail, ctx.drift, why)
    wire.update(NS.hint(block.extra, "source", {}))
    return NS.put({"type": "image", "source": wire}, block.extra)


def _input(block: ToolUseBlock, path: str, ctx: ListContext) -> Any:
    if block.raw_arguments is not None:
        report_invalid_arguments(block, path, ctx, "the IR")
    return input_object(block, path, ctx, "an IR tool input is an object; the value is wrapped")


def _tool_result(block: ToolResultBlock, path: str, ctx: ListContext) -> Wire:
    if isinstance(block.content, str):
        content: Any = block.content
    else:
        content = []
        for position, inner in enumerate(block.content):
            inner_path = item(at(path, "content"), position)
            body = render_block(inner, inner_path, ctx)
            if body is not None and body.get("type") == "text":
                content.append(body)
            elif body is not None:
                report_block_dropped(
                    inner, inner_path, ctx.drift, "an IR tool result holds text only"
                )
    wire: Wire = {"type": "tool_result", "toolUseId": block.tool_use_id, "content": content}
    if block.is_error is not None:
        wire["isError"] = block.is_error
    return NS.put(wire, block.extra)

"""How a message's ``content`` is spelled on the wire: a string, a list of parts, ``null``
or absent. Readers record the spelling as the ``$content`` hint only when the writers'
default would spell it otherwise, so converted messages get the default."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_citations_dropped
from providers.formats._kit.paths import at, item
from providers.formats.base import FormatError
from providers.umf import Block, RefusalBlock, TextBlock

PartReader = Callable[[Any, str], Block]
PartParser = Callable[[dict[str, Any], str], Block]


def typed_part_reader(
    parsers: dict[str, PartParser],
    known: Collection[str],
    read_object: Callable[[Any, str], dict[str, Any]],
) -> PartReader:
    """The reader of one content part: ``read_object`` checks it is an object (and what
    else the format refuses), then the parser for its ``type`` makes the block;
    :class:`FormatError` naming the ``known`` part types for a type no parser reads.
    Built once per format, so that reading a part costs no call more than its checks."""

    def read_part(raw: Any, path: str) -> Block:
        part = read_object(raw, path)
        kind = part.get("type")
        parser = parsers.get(kind) if isinstance(kind, str) else None
        if parser is None:
            raise FormatError(
                f"unknown content part type {kind!r}; expected one of {', '.join(known)}",
                field=at(path, "type"),
            )
        return parser(part, path)

    return read_part


def content_shape(parts: list[Any], empty: str) -> str:
    """The default spelling of content: ``empty`` for no parts (in the format's words:
    ``absent``, ``null`` or an empty ``string``), one plain text part a ``string``,
    anything else ``parts``."""
    if not parts:
        return empty
    first = parts[0]
    if len(parts) == 1 and isinstance(first, dict) and first.keys() == {"type", "text"}:
        return "string" if first["type"] == "text" else "parts"
    return "parts"


def read_content(
    source: dict[str, Any], path: str, read_part: PartReader
) -> tuple[list[Block], list[Any], str]:
    """``(blocks, the parts as sent, how content was spelled)`` of a message."""
    if "content" not in source:
        return [], [], "absent"
    content = source["content"]
    if content is None:
        return [], [], "null"
    if isinstance(content, str):
        return [TextBlock(text=content)], [{"type": "text", "text": content}], "string"
    if isinstance(content, list):
        content_path = at(path, "content")
        blocks = [read_part(part, item(content_path, i)) for i, part in enumerate(content)]
        return blocks, content, "parts"
    raise FormatError(
        "content must be a string, an array of parts or null", field=at(path, "content")
    )


def content_hint(parts: list[Any], role: str, spelled: str) -> str | None:
    """The ``$content`` hint to keep: None when the default spells it the same."""
    return None if spelled == _default_shape(parts, role) else spelled


def write_content(out: dict[str, Any], parts: list[dict[str, Any]], role: str, hint: Any) -> None:
    """Set ``out["content"]`` to ``parts`` spelled as ``hint`` says (else the default)."""
    default = _default_shape(parts, role)
    shape = hint or default
    if shape == "null" and not parts:
        out["content"] = None
    elif shape == "string" and default in ("string", "absent"):
        out["content"] = parts[0]["text"] if parts else ""
    elif shape != "absent" or parts:
        out["content"] = parts


def _default_shape(parts: list[Any], role: str) -> str:
    # An assistant's missing content is left out; anyone else's is an empty string.
    return content_shape(parts, "absent" if role == "assistant" else "string")


def write_result_content(wire: dict[str, Any], content: Any, hint: Any) -> None:
    """Set a tool message's content: left out or ``null`` when it was read so and is empty."""
    if hint == "null" and content == "":
        wire["content"] = None
    elif hint != "absent" or content != "":
        wire["content"] = content


def write_text(
    block: TextBlock, path: str, ctx: RenderContext, why: str | None = None
) -> dict[str, Any]:
    """A ``text`` part with the block's verbatim fields; citations this format did not read
    (it marks its own with ``$citations``) are ``content-dropped``, ``why`` saying so in
    the format's own words when it has them."""
    if block.citations and ctx.ns.hint(block.extra, "citations") is None:
        why = why or f"citations of another format cannot be sent to {ctx.label}"
        report_citations_dropped(block, path, ctx.drift, why)
    return ctx.ns.put({"type": "text", "text": block.text}, block.extra)


def sent_as_text(
    text: str, path: str, ctx: RenderContext, why: str, *, original: Any, text_type: str = "text"
) -> dict[str, Any]:
    """A text part (of type ``text_type``) standing in for content the target cannot take
    as it is (``content-type-unsupported``, ``why`` saying so)."""
    ctx.drift.add(
        "content-type-unsupported", why, field=path, original=original, transformed=text_type
    )
    return {"type": text_type, "text": text}


def write_refusal(
    block: RefusalBlock, path: str, ctx: RenderContext, role: str, *, text_type: str = "text"
) -> dict[str, Any]:
    """A ``refusal`` part in an assistant message (or in the document it was read from);
    in a ``role`` message, which holds no refusals, a text part of ``text_type``."""
    if role == "assistant" or ctx.faithful:
        return ctx.ns.put({"type": "refusal", "refusal": block.text}, block.extra)
    why = f"only assistant messages hold refusals; sent as text in a {role} message"
    return sent_as_text(block.text, path, ctx, why, original="refusal", text_type=text_type)


def refusal_as_text(block: RefusalBlock, path: str, ctx: RenderContext) -> dict[str, Any]:
    """A refusal as a ``text`` part, for an API with no refusal content."""
    why = f"{ctx.label} has no refusal content; sent as text"
    return sent_as_text(block.text, path, ctx, why, original="refusal")

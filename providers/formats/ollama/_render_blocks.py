"""UMF blocks -> the fields of an Ollama message, with a drift warning for each lossy step.

An Ollama message is one ``content`` string, one ``thinking`` string, ``images`` (base64)
and ``tool_calls``. So: several text blocks are joined with newlines; a refusal is text
(``content-type-unsupported``); reasoning text travels as ``thinking`` but its signature
or encrypted data never does (``signature-stripped``), and redacted reasoning is dropped
(``reasoning-dropped``); a plain-text document is sent as text
(``content-type-unsupported``), any other document, audio and citations are dropped
(``content-dropped``); tool-call ids are dropped (``id-rewritten`` with no new value:
Ollama pairs results by tool name and order). Images travel as base64 data; an
``http(s)`` URL cannot be fetched during a conversion (no network), so it is kept as text
naming the URL (``content-type-unsupported``); a provider file id means nothing to Ollama
and is dropped (``content-dropped``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    report_block_as_text,
    report_block_dropped,
    report_citations_dropped,
    report_reasoning_dropped,
)
from providers.formats._kit.ids import report_rewritten
from providers.formats._kit.paths import at
from providers.formats._kit.wire import (
    arguments_object,
    document_text,
    is_base64,
    parse_data_uri,
    report_call_not_made,
    report_signature_not_written,
)
from providers.formats.base import Drift
from providers.umf import (
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import NS


@dataclass
class Context(RenderContext):
    """A render, with the tool name of every call id (Ollama pairs results with calls by
    tool name)."""

    call_names: dict[str, str] = field(default_factory=dict)


@dataclass
class Parts:
    """A message's blocks sorted into the fields they become."""

    texts: list[str] = field(default_factory=list)
    thinking: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    # Images the message's role cannot hold: they follow in a user message.
    moved_images: list[str] = field(default_factory=list)
    results: list[tuple[ToolResultBlock, str]] = field(default_factory=list)

    def empty(self) -> bool:
        """Whether nothing is left for the message itself."""
        return not (self.texts or self.thinking or self.images or self.calls)


def place(block: Block, path: str, role: str, parts: Parts, ctx: Context) -> None:
    """Sort one block into ``parts`` (or drop it with a warning)."""
    if isinstance(block, TextBlock):
        parts.texts.append(block.text)
        if block.citations:
            why = "Ollama has no citations; the text is sent without them"
            report_citations_dropped(block, path, ctx.drift, why)
    elif isinstance(block, RefusalBlock):
        parts.texts.append(block.text)
        report_block_as_text(block, path, ctx.drift, "Ollama has no refusal field; sent as text")
    elif isinstance(block, ThinkingBlock):
        _place_thinking(block, path, role, parts, ctx)
    elif isinstance(block, ImageBlock):
        _place_image(block, path, role, parts, ctx)
    elif isinstance(block, ToolUseBlock):
        _place_call(block, path, role, parts, ctx)
    elif isinstance(block, ToolResultBlock):
        parts.results.append((block, path))
    else:
        _place_media_text(block, path, parts.texts, ctx)


def _place_thinking(block: ThinkingBlock, path: str, role: str, parts: Parts, ctx: Context) -> None:
    if block.redacted or not block.text or (role != "assistant" and not ctx.faithful):
        why = "redacted reasoning has no text Ollama could take"
        if block.text and not block.redacted:
            why = f"Ollama takes reasoning in assistant messages only, not {role} ones"
        report_reasoning_dropped(block, path, ctx.drift, why)
        return
    parts.thinking.append(block.text)
    if block.signature is not None or block.data is not None:
        why = "Ollama takes reasoning as plain text; its signature is not sent"
        report_signature_not_written(block, path, ctx.drift, why, written_as="thinking")


def _place_image(block: ImageBlock, path: str, role: str, parts: Parts, ctx: Context) -> None:
    if block.detail not in (None, "auto"):
        ctx.drift.add(
            "field-unknown",
            "Ollama images take no detail hint",
            field=at(path, "detail"),
            original=block.detail,
            severity="info",
        )
    text = image_url_text(block, path, ctx.drift)
    if text is not None:
        parts.texts.append(text)
        return
    data = image_data(block, path, ctx.drift)
    if data is None:
        return
    if role == "user" or ctx.faithful:
        parts.images.append(data)
        return
    parts.moved_images.append(data)
    ctx.drift.add(
        "message-reordered",
        f"Ollama models read images from user messages; this {role} image moved to a "
        "user message after it",
        field=path,
        original=role,
        transformed="user",
    )


def _place_media_text(block: Block, path: str, texts: list[str], ctx: Context) -> None:
    """Documents and audio: a plain-text document travels as text, the rest is dropped."""
    text = document_text(block) if isinstance(block, DocumentBlock) else None
    if text is not None:
        texts.append(text)
        why = "Ollama has no documents; this plain-text one is sent as text"
        report_block_as_text(block, path, ctx.drift, why)
        return
    assert isinstance(block, DocumentBlock | AudioBlock)
    report_block_dropped(block, path, ctx.drift, f"Ollama takes no {block.type} content; left out")


def _place_call(block: ToolUseBlock, path: str, role: str, parts: Parts, ctx: Context) -> None:
    if role != "assistant" and not ctx.faithful:
        report_call_not_made(
            block, path, ctx.drift, f"a {role} message cannot make tool calls; left out"
        )
        return
    parts.calls.append(render_call(block, path, ctx))


def render_call(block: ToolUseBlock, path: str, ctx: Context) -> dict[str, Any]:
    """One ``tool_calls`` entry. Ids go back only to the Ollama payload they came from."""
    arguments = block.input if ctx.faithful else arguments_object(block, path, ctx.drift)
    function = NS.put({"name": block.name, "arguments": arguments}, block.extra, "function")
    call: dict[str, Any] = {"function": function}
    if ctx.faithful and NS.hint(block.extra, "id") != "synthesized":
        call["id"] = block.id
    elif not ctx.faithful:
        drop_id(block.id, at(path, "id"), ctx)
    return NS.put(call, block.extra)


def drop_id(value: str, path: str, ctx: Context) -> None:
    """Warn that a tool id does not travel (Ollama pairs calls and results by name)."""
    if value:
        report_rewritten(
            ctx.drift,
            "Ollama pairs tool results with calls by tool name and order; the id is not sent",
            path,
            value,
            None,
        )


def joined(pieces: list[str], path: str, what: str, ctx: Context) -> str:
    """``pieces`` as the one string Ollama takes (a note when several were joined)."""
    if len(pieces) > 1:
        ctx.drift.add(
            "content-type-unsupported",
            f"Ollama {what} is one string; {len(pieces)} blocks were joined with newlines",
            field=path,
            original=len(pieces),
            transformed="string",
            severity="info",
        )
    return "\n".join(pieces)


# --------------------------------------------------------------------------- images


def image_data(block: ImageBlock, path: str, drift: Drift) -> str | None:
    """The base64 data Ollama takes for an image, or None (with a warning) when there is
    none to give; an unfetchable URL is reported here and sent as text by the caller."""
    source = block.source
    data = source.data if source.type == "base64" else None
    if source.type == "url" and source.url and source.url.startswith("data:"):
        decoded = parse_data_uri(source.url)
        data = decoded[1] if decoded else None
    if data is not None and is_base64(data):
        return data
    if source.type == "url" and source.url and not source.url.startswith("data:"):
        return None
    why = "Ollama takes images as base64 bytes only; this one has none to send"
    report_block_dropped(block, path, drift, why)
    return None


def image_url_text(block: ImageBlock, path: str, drift: Drift) -> str | None:
    """The text standing in for an image URL Ollama cannot fetch, or None for no URL."""
    url = block.source.url
    if block.source.type != "url" or not url or url.startswith("data:"):
        return None
    text = f"[image: {url}]"
    drift.add(
        "content-type-unsupported",
        "Ollama cannot fetch image URLs (and conversion does not download); "
        "the URL is sent as text",
        field=path,
        original={"type": "image", "url": url},
        transformed=text,
    )
    return text

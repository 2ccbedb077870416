"""What the anthropic and bedrock-converse block renderers share: a list of blocks rendered
with each block's UMF path, the blocks the format kept verbatim put back where they stood,
the renderers whose only difference is the provider's words, and the media rules, in the
provider's words: an image's detail hint has no place, a file id of another provider means
nothing, and media the API cannot take is left out with its summary (never its bytes)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._content_blocks.drafts import Ctx, Part
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    report_block_as_text,
    report_block_dropped,
    report_reasoning_dropped,
)
from providers.formats._kit.paths import CONTENT_AT
from providers.formats._kit.wire import signature_portable
from providers.formats.base import Drift
from providers.umf import AudioBlock, Block, DocumentBlock, Extra, ImageBlock, MediaSource

BlockRenderer = Callable[[Block, str, Ctx], "dict[str, Any] | None"]
# What a block body says it is, in the wire's words (``Dialect.kind``).
BlockKind = Callable[[dict[str, Any]], Any]
_MADE = len(CONTENT_AT)


def block_list_renderer(
    format_id: str, kept_key: str, render_block: BlockRenderer[Ctx], kind: BlockKind
) -> Callable[[list[Block], str, Extra, Ctx], list[Part]]:
    """The renderer of a list of blocks (a message's, or a tool result's) at ``path``:
    each block by ``render_block`` (None leaves it out), then the blocks kept verbatim
    under ``kept_key`` of the format's extra put back at their original positions.
    ``kind`` is the dialect's (:attr:`~.drafts.Dialect.kind`): each part's kind."""

    def render_blocks(blocks: list[Block], path: str, extra: Extra, ctx: Ctx) -> list[Part]:
        parts: list[Part] = []
        for index, block in enumerate(blocks):
            block_path = (  # see CONTENT_AT
                path + CONTENT_AT[index] if index < _MADE else f"{path}.content[{index}]"
            )
            body = render_block(block, block_path, ctx)
            if body is not None:
                parts.append(Part(body, block_path, kind=kind(body)))
        if extra:
            path = f"{path}.extra.{format_id}.{kept_key}"
            put_back_kept(parts, extra, path, format_id, kept_key, kind)
        return parts

    return render_blocks


def put_back_kept(
    parts: list[Part], extra: Extra, path: str, format_id: str, kept_key: str, kind: BlockKind
) -> list[Part]:
    """``parts`` with the blocks kept verbatim under ``kept_key`` (each ``{"at", "block"}``)
    inserted where they stood; ``path`` names the list."""
    for number, entry in enumerate(extra.get(format_id, {}).get(kept_key, ())):
        body = entry["block"]
        parts.insert(min(entry["at"], len(parts)), Part(body, f"{path}[{number}]", kind=kind(body)))
    return parts


def refusal_renderer(
    target: str, text_body: Callable[[str], dict[str, Any]], *, unit: str = "block"
) -> BlockRenderer[RenderContext]:
    """The renderer of a refusal, which these APIs have no block (Gemini: ``unit``
    "part") for: sent as text."""

    def render_refusal(block: Any, path: str, ctx: RenderContext) -> dict[str, Any]:
        report_block_as_text(
            block, path, ctx.drift, f"{target} has no refusal {unit}; sent as text"
        )
        return text_body(block.text)

    return render_refusal


def thinking_renderer(
    format_id: str,
    target: str,
    *,
    redacted: Callable[[str], dict[str, Any]],
    reasoning: Callable[[str, str | None], dict[str, Any]],
    needs_signature: bool,
    unsendable: str,
) -> BlockRenderer[RenderContext]:
    """The renderer of a thinking block, sent only back to the provider that signed it:
    ``redacted`` makes the block of its opaque data, ``reasoning`` that of its text and
    signature (required when ``needs_signature``, unless the payload is written back as
    read). Anything else is dropped with a warning, ``unsendable`` saying why for the
    provider's own reasoning."""

    foreign = f"reasoning of another provider (or of unknown origin) cannot be replayed to {target}"

    def render_thinking(block: Any, path: str, ctx: RenderContext) -> dict[str, Any] | None:
        if signature_portable(block, format_id):
            if block.redacted and block.data is not None:
                return redacted(block.data)
            signed = not needs_signature or block.signature is not None or ctx.faithful
            if not block.redacted and signed:
                return reasoning(block.text, block.signature)
            why = unsendable
        else:
            why = foreign
        report_reasoning_dropped(block, path, ctx.drift, why)
        return None

    return render_thinking


def nested_renderer(
    render_block: BlockRenderer[RenderContext],
    *,
    refused: tuple[str, ...],
    where: str,
) -> BlockRenderer[RenderContext]:
    """The renderer of a block inside a tool result: ``render_block``, but the ``refused``
    types, which ``where`` ("an Anthropic tool result") cannot hold, are left out, said
    as :func:`report_block_dropped` says it."""

    def render_nested(block: Block, path: str, ctx: RenderContext) -> dict[str, Any] | None:
        if block.type not in refused:
            return render_block(block, path, ctx)
        why = f"{where} cannot hold a {block.type} block; left out"
        report_block_dropped(block, path, ctx.drift, why)
        return None

    return render_nested


Media = ImageBlock | DocumentBlock | AudioBlock


def report_image_detail(block: ImageBlock, path: str, drift: Drift, target: str) -> None:
    """The note for an image detail hint (other than ``auto``: the caller checks, most
    images have none) the API has no place for."""
    drift.add(
        "field-unknown",
        f"{target} images take no detail hint",
        field=f"{path}.detail",
        original=block.detail,
        severity="info",
    )


def unsendable(source: MediaSource, target: str, what: str) -> str:
    """Why a source the API has no member for cannot be sent (``what``: "source",
    "image source")."""
    if source.type == "file":
        return f"a file id of another provider means nothing to {target}"
    return f"{target} cannot take this {source.type} {what}"


def drop_media(path: str, block: Media, why: str, drift: Drift) -> dict[str, Any] | None:
    """Report media the API cannot take (shown as :func:`report_block_dropped` shows a
    block: its type and summary, never its bytes); None, to leave the block out."""
    report_block_dropped(block, path, drift, f"{why}; left out")
    return None


def report_filename(block: DocumentBlock, path: str, drift: Drift, note: str) -> None:
    """The note for a document's file name the API has no place for beside its title
    (the caller checks that there is one, other than the title)."""
    drift.add(
        "field-unknown", note, field=f"{path}.filename", original=block.filename, severity="info"
    )

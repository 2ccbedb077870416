"""UMF blocks -> Gemini parts, with a drift warning for each lossy step.

``faithful`` is set when the conversation was read from this format: parts then come back
exactly as they were read (hints included). Otherwise each block becomes what the API
accepts: ids of other providers are left out (Gemini pairs by name and order), media URLs
become ``fileData`` (Gemini fetches only some), results become objects, foreign reasoning
is dropped.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from providers.formats._content_blocks.blocks import refusal_renderer
from providers.formats._content_blocks.drafts import Part as BlockPart
from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import (
    report_block_dropped,
    report_citations_dropped,
    report_foreign_extra,
    report_reasoning_dropped,
)
from providers.formats._kit.extra import Namespace, hint, own_extra
from providers.formats._kit.ids import ToolNames
from providers.formats._kit.wire import arguments_object, signature_portable
from providers.formats.base import Drift
from providers.formats.gemini._constants import (
    FORMAT_ID,
    FUNCTION_NAME,
    FUNCTION_NAME_REFUSED,
    FUNCTION_NAME_START,
)
from providers.formats.gemini._parse_results import response_object
from providers.formats.gemini._render_media import render_media
from providers.umf import Block, ToolResultBlock, ToolUseBlock


@dataclass
class Context(RenderContext):
    """A render of this format: also the function name of every call (a result must name
    its function), and the names as sent."""

    call_names: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._names = ToolNames(
            self.drift,
            pattern=FUNCTION_NAME,
            refused=FUNCTION_NAME_REFUSED,
            start=FUNCTION_NAME_START,
            note="function name rewritten to fit Gemini's name rules",
        )

    def function_name(self, original: str, path: str) -> str:
        """``original`` as Gemini takes it (kept as read when rendering faithfully); a
        rewrite is noted on ``<path>.name`` (``path``: the value that names it)."""
        if self.faithful or original in self._names.unchanged:
            return original
        return self._names(original, f"{path}.name")


def new_context(*, faithful: bool) -> Context:
    """A fresh render context for this format."""
    return Context(NAMESPACE, "Gemini", Drift(FORMAT_ID), faithful)


NAMESPACE = Namespace(FORMAT_ID)


class Part(BlockPart):  # a msgspec Struct, as the family's parts (made for every part)
    """One rendered part and the UMF path it came from; ``call_id`` / ``answers`` are the
    UMF ids of the call it makes or answers (the payload may carry no id at all)."""

    call_id: str | None = None
    answers: str | None = None
    name: str | None = None


def render_block(block: Block, path: str, ctx: Context) -> Part | None:
    """One block as a part, or None when Gemini cannot take it (a warning says so)."""
    body = RENDERERS[block.type](block, path, ctx)
    extra = block.extra
    if extra:  # most blocks carry no extra: nothing to report or put back
        report_foreign_extra(extra, path, ctx)
    if body is None:
        return None
    if extra:
        merge_fields(body, own_extra(extra, FORMAT_ID))
    # The block's class, not its ``type`` (a class attribute, which CPython 3.11 reads
    # through the generic lookup): the test runs for every block.
    if type(block) is ToolUseBlock:
        return Part(body, path, call_id=block.id, name=body["functionCall"]["name"])
    if type(block) is ToolResultBlock:
        return Part(body, path, answers=block.tool_use_id, name=body["functionResponse"]["name"])
    return Part(body, path)


def merge_fields(body: dict[str, Any], fields: Mapping[str, Any]) -> None:
    """Put kept provider fields back: at the part level, or inside the data object
    (``{"functionCall": {"willContinue": true}}`` joins the call's own fields)."""
    for key, value in fields.items():
        if isinstance(body.get(key), dict) and isinstance(value, dict):
            body[key] = {**body[key], **value}
        else:
            body[key] = value


def _text(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    verbatim = hint(block.extra, FORMAT_ID, "part") if block.extra else None
    if isinstance(verbatim, dict):
        return copy.deepcopy(verbatim)
    if block.citations is not None:
        report_citations_dropped(
            block, path, ctx.drift, "Gemini parts carry no citations; left out"
        )
    return {"text": block.text}


def _thinking(block: Any, path: str, ctx: Context) -> dict[str, Any] | None:
    if signature_portable(block, FORMAT_ID) and not block.redacted:
        body: dict[str, Any] = {}
        if hint(block.extra, FORMAT_ID, "text") != "absent":
            body["text"] = block.text
        if hint(block.extra, FORMAT_ID, "thought") != "absent":
            body["thought"] = True
        if block.signature is not None:
            body["thoughtSignature"] = block.signature
        return body
    why = "reasoning of another provider (or of unknown origin) cannot be replayed to Gemini"
    report_reasoning_dropped(block, path, ctx.drift, why)
    return None


def _tool_use(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    call: dict[str, Any] = {"name": ctx.function_name(block.name, path)}
    own = block.extra.get(FORMAT_ID)  # None for a call of another format: no hints
    if not own or own.get("$args") != "absent":
        call["args"] = (
            block.input
            if ctx.faithful
            else arguments_object(block, path, ctx.drift, what="function")
        )
    if _keeps_id(block, ctx):
        call["id"] = block.id
    elif FORMAT_ID not in block.extra:
        # Said here, not through the kit's report_rewritten: one Python call fewer for a
        # note most converted calls get (the conversion bench's hot path).
        ctx.drift.add(
            "id-rewritten",
            "Gemini pairs calls and results by name and order; the call id is not sent",
            field=f"{path}.id",
            original=block.id,
            transformed=None,
            severity="info",
        )
    return {"functionCall": call}


def _keeps_id(block: Any, ctx: Context) -> bool:
    """Ids Gemini gave are sent back; made-up ones and other providers' are not."""
    extra = block.extra
    if FORMAT_ID not in extra:  # a call or result of another format
        return ctx.faithful
    own = extra[FORMAT_ID]
    return not own or own.get("$id") != "synthesized"


# Said of most results converted: written once, not for each of them.
_WRAPPED = "a Gemini function response is an object; the result was wrapped"
_WRAPPED_ERROR = f"{_WRAPPED} as an error"


def _tool_result(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    # Most results are one string and carry no extra: two calls saved for each.
    content = block.content
    media: Sequence[Part] = ()
    if type(content) is str:  # the common result: no tuple or list built for it
        text = content
    else:
        text, media = _result_content(block, path, ctx)
    response = hint(block.extra, FORMAT_ID, "response") if block.extra else None
    if not isinstance(response, dict):
        response, wrapped = response_object(text, block.is_error)
        if wrapped and not ctx.faithful:
            ctx.drift.add(
                "content-type-unsupported",
                _WRAPPED_ERROR if block.is_error else _WRAPPED,
                field=path,
                original=text,
                transformed=response,
            )
    # Gemini pairs a response with its call by name: the call's name wins when converting.
    name = block.name
    if not (ctx.faithful and name is not None):
        name = ctx.call_names.get(block.tool_use_id) or block.name or block.tool_use_id
        name = ctx.function_name(name, path)
    body: dict[str, Any] = {"name": name, "response": response}
    if _keeps_id(block, ctx):
        body["id"] = block.tool_use_id
    if media or (ctx.faithful and isinstance(block.content, list)):
        body["parts"] = [part.body for part in media]
    return {"functionResponse": body}


def _result_content(block: ToolResultBlock, path: str, ctx: Context) -> tuple[str, list[Part]]:
    """The text of a result (its text blocks joined) and its media as response parts."""
    if isinstance(block.content, str):
        return block.content, []
    texts: list[str] = []
    media: list[Part] = []
    for index, inner in enumerate(block.content):
        inner_path = f"{path}.content[{index}]"
        if inner.type in ("text", "refusal"):
            texts.append(inner.text)
        elif inner.type in ("image", "document", "audio"):
            part = render_block(inner, inner_path, ctx)
            media += [part] if part is not None else []
        else:
            why = f"a Gemini function response cannot hold a {inner.type} block; left out"
            report_block_dropped(inner, inner_path, ctx.drift, why)
    return "\n".join(texts), media


# One renderer per UMF block type (a test checks that none is missing).
RENDERERS: dict[str, Callable[[Any, str, Context], dict[str, Any] | None]] = {
    "text": _text,
    "refusal": refusal_renderer("Gemini", lambda text: {"text": text}, unit="part"),
    "image": render_media,
    "document": render_media,
    "audio": render_media,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
}

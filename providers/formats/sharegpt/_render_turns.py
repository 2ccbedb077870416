"""The turns of a UMF message in a ShareGPT entry.

Each message gives its turns in block order: text (with ``<image>`` / ``<audio>``
placeholders for media, whose paths go to ``images`` / ``audios``) a ``human`` or ``gpt``
turn, tool calls a ``function_call`` turn, tool results ``observation`` turns. A
conversation read from this format comes back as it was; one from another format is then
fitted to LLaMA-Factory's rules (one ``system`` field, turns alternating user-side and
assistant-side), with a warning for each change (see the package docstring).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from providers.formats._archive.foreign import (
    PlainText,
    report_call_id_dropped,
    result_text,
    thinking_text,
)
from providers.formats._archive.values import join_texts
from providers.formats._kit.drift import (
    report_block_as_text,
    report_block_dropped,
    report_thinking_dropped,
)
from providers.formats._kit.wire import data_uri, parse_arguments
from providers.formats.base import Drift
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    ImageBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import CANONICAL, MEDIA, NS

_RESULTS = "ShareGPT observations"  # which have no error flag

_TEXT = PlainText(
    citations="ShareGPT has no citations",
    as_text=lambda block: (
        f"ShareGPT has no {block.type} content; "
        + ("a refusal" if block.type == "refusal" else "a plain-text document")
        + " is written as text"
    ),
    dropped=lambda block: f"ShareGPT cannot hold {block.type} content here",
)
_text_of = _TEXT.text


@dataclass
class Turn:
    """One turn being written: its kind (human, gpt, function_call, observation), the
    UMF message it came from, and what it holds so far."""

    kind: str
    index: int
    name: str
    pieces: list[tuple[str, str]] = field(default_factory=list)  # (text | media, value)
    calls: list[ToolUseBlock] = field(default_factory=list)
    results: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)
    value: str | None = None

    def text(self) -> str:
        """The turn's value: its pieces joined (placeholders glued to their text)."""
        if self.value is not None:
            return self.value
        out: list[str] = []
        pieces: list[str] = []
        for kind, piece in self.pieces:
            if kind == "text":
                pieces.append(piece)
                continue
            out.append(join_texts(pieces))
            out.append(piece)
            pieces = []
        out.append(join_texts(pieces))
        return "".join(out)


@dataclass
class Context:
    """What one render carries along."""

    drift: Drift
    faithful: bool
    system: list[str] = field(default_factory=list)
    media: dict[str, list[str]] = field(default_factory=lambda: {key: [] for key in MEDIA})
    started: bool = False


def message_turns(message: Message, index: int, ctx: Context) -> list[Turn]:
    """The turns of UMF message ``index`` (system text goes to ``ctx.system``)."""
    path = f"messages[{index}]"
    if message.role in ("system", "developer") and _to_system_field(message, ctx):
        _system(message, path, ctx)
        return []
    ctx.started = True
    turns: list[Turn] = []
    calls = any(isinstance(block, ToolUseBlock) for block in message.content)
    for position, block in enumerate(message.content):
        block_path = f"{path}.content[{position}]"
        if calls and not ctx.faithful and not isinstance(block, ToolUseBlock | ToolResultBlock):
            _beside_calls(block, block_path, ctx)
            continue
        _place(block, message, block_path, index, turns, ctx)
    if not turns:
        turns.append(Turn(_kind_of(message), index, _kind_of(message)))
    first = turns[0]
    first.fields = NS.fields(message.extra)
    from_hint = NS.hint(message.extra, "from")
    if isinstance(from_hint, str):
        first.name = from_hint
    return turns


def _beside_calls(block: Block, path: str, ctx: Context) -> None:
    # A function_call turn holds calls only: what the message says beside them is lost.
    if isinstance(block, ThinkingBlock):
        why = "a function_call turn holds only calls; the reasoning beside them is dropped"
        report_thinking_dropped(block, path, ctx.drift, why)
        return
    text = block.text if isinstance(block, TextBlock | RefusalBlock) else block.type
    ctx.drift.add(
        "content-dropped",
        "a function_call turn holds only calls; what the message says beside them is dropped",
        field=path,
        original=text,
    )


def _to_system_field(message: Message, ctx: Context) -> bool:
    # A system turn read from this format stays a turn; any other goes to the field.
    return not ctx.faithful or NS.hint(message.extra, "field") == "system"


def _kind_of(message: Message) -> str:
    if message.role in ("system", "developer"):
        return "system"
    return CANONICAL[message.role]


def _system(message: Message, path: str, ctx: Context) -> None:
    texts = []
    for position, block in enumerate(message.content):
        if isinstance(block, TextBlock):
            texts.append(block.text)
        else:
            report_block_dropped(
                block, f"{path}.content[{position}]", ctx.drift, "the system field holds text"
            )
    text = "\n\n".join(texts)
    if not ctx.faithful and (ctx.started or ctx.system or message.role == "developer"):
        ctx.drift.add(
            "system-message-transformed",
            "ShareGPT has one system field; this message was merged into it",
            field=path,
            original=message.role,
            transformed="system",
        )
    ctx.system.append(text)


def _turn(turns: list[Turn], kind: str, index: int) -> Turn:
    if not turns or turns[-1].kind != kind or kind == "observation":
        turns.append(Turn(kind, index, kind))
    return turns[-1]


def _place(
    block: Block, message: Message, path: str, index: int, turns: list[Turn], ctx: Context
) -> None:
    text_kind = _kind_of(message) if message.role != "tool" else "observation"
    if isinstance(block, ToolUseBlock):
        if message.role != "assistant":
            report_block_dropped(
                block, path, ctx.drift, f"a {message.role} message cannot make tool calls"
            )
            return
        if not ctx.faithful:
            why = "ShareGPT calls have no ids; results follow their call in order"
            report_call_id_dropped(block, path, ctx.drift, why)
        _turn(turns, "function_call", index).calls.append(block)
    elif isinstance(block, ToolResultBlock):
        _turn(turns, "observation", index).results.append(
            result_text(block, path, ctx, _text_of, _RESULTS)
        )
    elif isinstance(block, ThinkingBlock):
        _thinking(block, path, text_kind, index, turns, ctx)
    elif isinstance(block, ImageBlock | AudioBlock):
        _media(block, message, path, text_kind, index, turns, ctx)
    else:
        text = _text_of(block, path, ctx)
        if text is not None:
            _turn(turns, text_kind, index).pieces.append(("text", text))


def _thinking(
    block: ThinkingBlock, path: str, kind: str, index: int, turns: list[Turn], ctx: Context
) -> None:
    unsigned = "the reasoning is written as <think> text; its signature is not"
    if thinking_text(block, path, ctx.drift, unsigned) is None:
        return
    if not (block.signature or block.data):
        why = "ShareGPT has no reasoning; it is written as <think> text"
        report_block_as_text(block, path, ctx.drift, why)
    _turn(turns, kind, index).pieces.append(("text", f"<think>\n{block.text}\n</think>"))


def _media(
    block: ImageBlock | AudioBlock,
    message: Message,
    path: str,
    kind: str,
    index: int,
    turns: list[Turn],
    ctx: Context,
) -> None:
    if not ctx.faithful and message.role != "user":
        report_block_dropped(
            block, path, ctx.drift, f"ShareGPT media belong to user turns, not {message.role}"
        )
        return
    key = "images" if isinstance(block, ImageBlock) else "audios"
    location = _media_path(block, path, ctx)
    if location is None:
        return
    ctx.media[key].append(location)
    _turn(turns, kind, index).pieces.append(("media", MEDIA[key]))


def _media_path(block: ImageBlock | AudioBlock, path: str, ctx: Context) -> str | None:
    source = block.source
    kept = NS.hint(block.extra, "path")
    location: str | None
    if source.type == "base64" and source.data is not None:
        location = kept if isinstance(kept, str) else data_uri(source.media_type, source.data)
    else:
        location = source.url if source.type == "url" else source.file_id
    if location is None:
        report_block_dropped(block, path, ctx.drift, "the media has no path, URL or data")
        return None
    if not ctx.faithful:
        ctx.drift.add(
            "content-type-unsupported",
            "ShareGPT media are paths beside the dataset; this one is written as "
            + ("a data URI" if source.type == "base64" else "its URL or file id"),
            field=path,
            original=source.type,
            transformed="path",
            severity="warning" if source.type == "base64" else "info",
        )
    return location


def finish(turn: Turn) -> dict[str, Any]:
    """The wire turn."""
    if turn.value is not None:
        text = turn.value
    elif turn.kind == "function_call" and turn.calls:
        value = calls_value(list(turn.calls))
        kept = NS.hint(turn.calls[0].extra, "value")
        text = kept if isinstance(kept, str) and same_json(kept, value) else dumps(value)
    elif turn.kind == "observation" and turn.results and not turn.pieces:
        text = turn.results[0] if len(turn.results) == 1 else dumps(turn.results)
    else:
        text = turn.text()
    return {**turn.fields, "from": turn.name, "value": text}


def same_json(raw: str, value: Any) -> bool:
    """Whether JSON text ``raw`` still holds ``value`` (storage may reorder its keys)."""
    try:
        return bool(json.loads(raw) == value)
    except ValueError:
        return False


def calls_value(blocks: list[Block]) -> JSON:
    """The JSON a ``function_call`` turn holds for these call blocks."""
    calls = [_call_object(block) for block in blocks if isinstance(block, ToolUseBlock)]
    listed = NS.hint(blocks[0].extra, "list") if blocks else None
    return calls if len(calls) != 1 or listed else calls[0]


def _call_object(block: ToolUseBlock) -> dict[str, Any]:
    shape = NS.hint(block.extra, "arguments")
    call: dict[str, Any] = {"name": block.name}
    if shape == "string":
        call["arguments"] = block.raw_arguments if block.raw_arguments is not None else "{}"
    elif (
        shape is None
        and block.raw_arguments is not None
        and not parse_arguments(block.raw_arguments)[1]
    ):
        call["arguments"] = block.raw_arguments  # not JSON: the string is all there is
    elif shape != "absent":
        call["arguments"] = block.input
    call.update(NS.fields(block.extra))
    return call


def dumps(value: JSON) -> str:
    """How this format writes JSON inside a string (as LLaMA-Factory's tools do)."""
    return json.dumps(value, ensure_ascii=False)

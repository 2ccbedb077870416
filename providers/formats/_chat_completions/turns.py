"""Any UMF conversation as the flat thread of turns a chat API takes (see the package
docstring for each change and its warning)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from providers.formats._chat_completions.pairing import (
    MISSING_RESULT_TEXT,
    warn_loose_tool,
    warn_orphan,
    warn_placeholder,
    warn_reordered,
)
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import (
    error_said_in_content,
    report_blocks_foreign_extra,
    report_developer,
    report_foreign_extra,
    report_message_name,
    report_reasoning_details,
    report_reasoning_text,
)
from providers.formats._kit.ids import CallIds
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import report_call_not_made
from providers.umf import (
    Block,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

# --------------------------------------------------------------------------- turns


@dataclass
class Located:
    """A block and the UMF path it came from (warnings name the path)."""

    block: Block
    path: str


@dataclass
class Turn:
    """One wire message to be: its role, its blocks, and where it came from.

    ``message`` is set when the turn is that whole UMF message (so its name and fields
    apply). A tool turn holds its ``result``, the wire id of the call it answers
    (``call_id``) and that call's name. ``call_ids`` maps an assistant's call paths to the
    ids the request uses. ``synthetic`` turns were made up by the conversion.
    """

    role: str
    blocks: list[Located]
    path: str
    message: Message | None = None
    result: Located | None = None
    call_id: str | None = None
    call_name: str | None = None
    call_ids: dict[str, str] = field(default_factory=dict)
    synthetic: bool = False

    def calls(self) -> list[Located]:
        """The tool calls this turn makes, in order."""
        return [entry for entry in self.blocks if isinstance(entry.block, ToolUseBlock)]


def locate(blocks: list[Block], path: str) -> list[Located]:
    """The blocks of the ``content`` list inside the value at ``path``, with their paths."""
    return [Located(block, item(at(path, "content"), i)) for i, block in enumerate(blocks)]


def turns_as_read(messages: list[tuple[int, Message]], ctx: Context) -> list[Turn]:
    """One turn per message, nothing moved: how a conversation this format read is written
    back. A tool message's first result block is its result; other blocks beside it (added
    by another format) are ``content-dropped``."""
    turns = []
    for index, message in messages:
        path = item("messages", index)
        turn = Turn(message.role, locate(message.content, path), path, message=message)
        _report_name(message, path, ctx)
        if message.reasoning or message.reasoning_details:
            ctx.drift.add(
                "reasoning-dropped",
                f"{ctx.label} messages read back as they were have no reasoning field",
                field=at(path, "reasoning" if message.reasoning else "reasoning_details"),
                original=message.reasoning,
            )
        if message.role == "tool":
            turn.result, turn.call_id = _take_result(turn, message, path)
            for entry in turn.blocks:
                ctx.drift.add(
                    "content-dropped",
                    "a tool message holds one tool result; this block is left out",
                    field=entry.path,
                    original=entry.block.type,
                )
            turn.blocks = []
        turns.append(turn)
    return turns


def _report_name(message: Message, path: str, ctx: Context) -> None:
    report_message_name(message, path, ctx.drift, f"{ctx.label} messages carry no author name")


def _take_result(turn: Turn, message: Message, path: str) -> tuple[Located, str]:
    for position, entry in enumerate(turn.blocks):
        if isinstance(entry.block, ToolResultBlock):
            del turn.blocks[position]
            return entry, entry.block.tool_use_id
    # A tool message holding its result as plain blocks (UMF's InternalMessage shape).
    result = _wrap_loose(message)
    turn.blocks = []
    return Located(result, path), result.tool_use_id


def linearize(
    messages: list[tuple[int, Message]],
    ctx: Context,
    valid_id: Callable[[str], bool],
    make_id: Callable[[str], str],
) -> list[Turn]:
    """The thread as turns a chat API accepts (see the module docstring)."""
    splitter = _Splitter(ctx)
    for index, message in messages:
        splitter.add(message, index)
    return _Pairer(splitter.turns, ctx, CallIds(ctx.drift, valid_id, make_id)).run()


class _Splitter:
    """Turns UMF messages into turns: system messages gathered, tool results split out."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.turns: list[Turn] = []
        self.started = False  # a non-system turn was written

    def add(self, message: Message, index: int) -> None:
        path = item("messages", index)
        report_foreign_extra(message.extra, path, self.ctx)
        located = locate(message.content, path)
        report_blocks_foreign_extra(message.content, path, self.ctx)
        _report_name(message, path, self.ctx)
        if message.role in ("system", "developer"):
            self._system(message, located, path)
            return
        self.started = True
        role = message.role
        if role == "tool" and not any(isinstance(e.block, ToolResultBlock) for e in located):
            if message.tool_call_id is not None:
                self._result(Located(_wrap_loose(message), path))
                return
            warn_loose_tool(self.ctx.drift, path)
            role = "user"
        located = self._with_reasoning(message, located, path)
        self._segments(message, role, located, path)

    def _system(self, message: Message, located: list[Located], path: str) -> None:
        if message.role == "developer":
            why = f"{self.ctx.label} has no developer role; sent as a system message"
            report_developer(path, self.ctx.drift, why)
        if not self.started:
            self.turns.append(Turn("system", located, path, message=message))
            return
        self.ctx.drift.add(
            "system-message-transformed",
            "a system message after the conversation started; merged into the leading one",
            field=path,
            original=_index(path),
            transformed=0,
        )
        leading = [turn for turn in self.turns if turn.role == "system"]
        if leading:
            leading[-1].blocks.extend(located)
            leading[-1].message = None
        else:
            self.turns.insert(0, Turn("system", located, path))

    def _with_reasoning(self, message: Message, located: list[Located], path: str) -> list[Located]:
        why = f"{self.ctx.label} takes no reasoning details"
        report_reasoning_details(message, path, self.ctx.drift, why)
        if not message.reasoning:
            return located
        has_thinking = any(isinstance(entry.block, ThinkingBlock) for entry in located)
        if message.role == "assistant" and not has_thinking:
            thinking = ThinkingBlock(text=message.reasoning)
            return [Located(thinking, at(path, "reasoning")), *located]
        why = "reasoning beside thinking blocks (or outside an assistant message) is not sent"
        report_reasoning_text(message, path, self.ctx.drift, why)
        return located

    def _segments(self, message: Message, role: str, located: list[Located], path: str) -> None:
        segment: list[Located] = []
        emitted = 0
        for entry in located:
            if isinstance(entry.block, ToolResultBlock):
                emitted += self._flush(segment, role, path)
                segment = []
                self._result(entry)
                emitted += 1
            elif isinstance(entry.block, ToolUseBlock) and role != "assistant":
                why = f"a {role} message cannot make tool calls"
                report_call_not_made(entry.block, entry.path, self.ctx.drift, why)
            else:
                segment.append(entry)
        if segment or not emitted:
            self._flush(segment, role, path, allow_empty=True)
            if not emitted and role == message.role:
                self.turns[-1].message = message

    def _flush(
        self, segment: list[Located], role: str, path: str, allow_empty: bool = False
    ) -> int:
        if not segment and not allow_empty:
            return 0
        if role == "tool" and segment:
            self.ctx.drift.add(
                "message-reordered",
                "content beside a tool result goes in a user message after it",
                field=segment[0].path,
                original="tool",
                transformed="user",
            )
            role = "user"
        self.turns.append(Turn(role, segment, path))
        return 1

    def _result(self, entry: Located) -> None:
        self.turns.append(Turn("tool", [], entry.path, result=entry))


def _wrap_loose(message: Message) -> ToolResultBlock:
    return ToolResultBlock(
        tool_use_id=message.tool_call_id or "", content=list(message.content), name=message.name
    )


class _Pairer:
    """Walks the turns once, pulling each call's results up right behind it."""

    def __init__(self, turns: list[Turn], ctx: Context, ids: CallIds) -> None:
        self.turns, self.ctx, self.ids = turns, ctx, ids
        self.out: list[Turn] = []
        self.used: set[int] = set()

    def run(self) -> list[Turn]:
        for position, turn in enumerate(self.turns):
            if position in self.used:
                continue
            if turn.role == "tool":
                self.out.append(self._orphan(turn))
                continue
            self.out.append(turn)
            if turn.role == "assistant" and turn.calls():
                self._answer(position, turn)
        return self.out

    def _answer(self, position: int, turn: Turn) -> None:
        found: dict[int, tuple[str, str]] = {}  # turn position -> (wire id, call name)
        missing: list[Turn] = []
        for call in turn.calls():
            block = call.block
            assert isinstance(block, ToolUseBlock)
            wire = turn.call_ids[call.path] = self.ids.claim(block.id, at(call.path, "id"))
            match = self._find(position, block.id, found)
            if match is None:
                missing.append(self._placeholder(block, wire, call.path))
            else:
                found[match] = (wire, block.name)
        expected = position + 1
        for match in sorted(found):
            result = self.turns[match]
            result.call_id, result.call_name = found[match]
            self.used.add(match)
            if match != expected:
                why = (
                    f"tool result moved to right after its tool call, as {self.ctx.label} requires"
                )
                warn_reordered(
                    self.ctx.drift, result.path, _index(result.path), _index(turn.path), why
                )
            expected = match + 1
            self.out.append(result)
        self.out.extend(missing)

    def _find(self, position: int, call_id: str, taken: dict[int, Any]) -> int | None:
        for later in range(position + 1, len(self.turns)):
            turn = self.turns[later]
            result = turn.result.block if turn.result else None
            if (
                isinstance(result, ToolResultBlock)
                and result.tool_use_id == call_id
                and later not in self.used
                and later not in taken
            ):
                return later
        return None

    def _placeholder(self, call: ToolUseBlock, wire: str, path: str) -> Turn:
        warn_placeholder(self.ctx.drift, path, "result")
        result = ToolResultBlock(tool_use_id=call.id, content=MISSING_RESULT_TEXT)
        located = Located(result, path)
        return Turn("tool", [], path, result=located, call_id=wire, call_name=call.name)

    def _orphan(self, turn: Turn) -> Turn:
        assert turn.result is not None
        result = turn.result.block
        assert isinstance(result, ToolResultBlock)
        warn_orphan(self.ctx.drift, turn.result.path, "no earlier tool call")
        path = turn.result.path
        if isinstance(result.content, str):
            blocks = [Located(TextBlock(text=result.content), path)] if result.content else []
        else:
            blocks = [
                Located(b, item(at(path, "content"), i)) for i, b in enumerate(result.content)
            ]
        if result.is_error:
            error = mark_error("", path, self.ctx)
            blocks.insert(0, Located(TextBlock(text=error), at(path, "is_error")))
        return Turn("user", blocks, path)


def _index(path: str) -> int:
    """The message index a ``messages[i]...`` path starts with."""
    return int(path[len("messages[") :].split("]", 1)[0])


def mark_error(
    content: Any,
    path: str,
    ctx: Context,
    *,
    what: str = "tool results",
    text_type: str = "text",
    provider: str | None = None,
) -> Any:
    """A tool result's wire content with its error flag said in the text (these APIs have
    no flag): ``capability-unsupported``. ``what`` names the target's results ("tool
    outputs"), ``text_type`` its text parts (``input_text``), ``provider`` whose they are
    (the format's label unless given)."""
    return error_said_in_content(
        content, path, ctx.drift, f"{provider or ctx.label} {what}", text_type=text_type
    )

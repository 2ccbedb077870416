"""JSON Lines -> conversations: one per non-blank line, read by the ``openai-chat`` format
(a line is a Chat Completions request without a model). What that format keeps under
``extra["openai-chat"]`` is moved to ``extra["openai-finetune"]`` (so a line's ``weight``
never travels into a Chat Completions request), and back for rendering (:func:`moved`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from providers.formats import openai_chat
from providers.formats._archive import Entry, loads_entry, read_entries
from providers.formats._kit.fields import require_list, require_mapping
from providers.formats.base import FormatError, ParseResult
from providers.umf import JSON, Block, Conversation, Extra, ToolResultBlock

from ._constants import CHAT, FORMAT_ID


def parse(payload: JSON) -> list[ParseResult]:
    """One conversation per non-blank line of a JSONL string; :class:`FormatError` naming
    the line (``line 3.messages[1].role``) for the first line that is not an example."""
    if not isinstance(payload, str):
        raise FormatError("openai-finetune payloads are JSON Lines text", field="payload")
    results = []
    for number, (line, line_end) in enumerate(lines(payload), start=1):
        if line.strip():
            results.append(parse_line(line, line_end, f"line {number}"))
    if not results:
        raise FormatError("no lines", field="payload")
    return results


def lines(text: str) -> Iterator[tuple[str, str]]:
    """``(line, its line ending)`` for each line, without copying the whole text."""
    start = 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end + 1
        raw = text[start:end]
        body = raw.rstrip("\r\n")
        yield body, raw[len(body) :]
        start = end


def parse_line(line: str, line_end: str, where: str) -> ParseResult:
    """The conversation of one line (``where`` names it in errors)."""
    body = require_mapping(loads_entry(line, where), where)
    if "messages" in body:
        result = _read_chat(body, where)
    elif "input" in body:
        result = _read_preference(body, where)
    else:
        raise FormatError(
            "a fine-tuning line needs messages (or input, for preference data)",
            field=f"{where}.messages",
        )
    own = result.conversation.extra.setdefault(FORMAT_ID, {})
    own.update({"$line": line, "$line_end": line_end})
    return result


def _read_chat(body: JSON, where: str) -> ParseResult:
    try:
        [item] = openai_chat.parse(body)
    except FormatError as error:
        raise FormatError(error.message, field=_within(where, error.field)) from None
    conversation = moved(item.conversation, CHAT, FORMAT_ID)
    conversation.extra[FORMAT_ID].pop("$shape", None)
    warnings = [w.model_copy(update={"source": FORMAT_ID}) for w in item.warnings]
    return ParseResult(conversation, warnings)


def _read_preference(body: dict[str, Any], where: str) -> ParseResult:
    request = require_mapping(body["input"], f"{where}.input")
    if "preference" in request:
        # The input's unknown fields and the line's own other fields share the
        # conversation's namespace, where the latter are "preference": one would take
        # the other's place.
        raise FormatError(
            "a preference example's input cannot have a field named preference",
            field=f"{where}.input.preference",
        )
    result = _read_chat(request, f"{where}.input")
    preferred_path = f"{where}.preferred_output"
    preferred = require_list(body.get("preferred_output", []), preferred_path)
    answer = _read_chat({"messages": preferred}, where)
    for message in answer.conversation.messages:
        message.extra.setdefault(FORMAT_ID, {})["$output"] = "preferred"
    conversation = result.conversation
    conversation.messages.extend(answer.conversation.messages)
    own = conversation.extra.setdefault(FORMAT_ID, {})
    own["$shape"] = "preference"
    if "preferred_output" not in body:
        own["$preferred"] = "absent"
    others = {k: v for k, v in body.items() if k not in ("input", "preferred_output")}
    if others:
        own["preference"] = others
    return ParseResult(conversation, result.warnings + answer.warnings)


def _within(where: str, field: str | None) -> str:
    # openai-chat names the fields of a preferred_output list "messages[0]...".
    return f"{where}.{field}" if field else where


def iter_parse(binary: BinaryIO) -> Iterator[ParseResult | FormatError]:
    """The conversations of a JSONL file, one line at a time; a line that cannot be read
    is a :class:`FormatError` naming it, and the next lines still come."""
    for entry in read_entries(binary, lines="always"):
        yield _entry_result(entry)


def _entry_result(entry: Entry) -> ParseResult | FormatError:
    if entry.error is not None:
        return entry.error
    try:
        return parse_line(entry.text or "", entry.line_end, entry.position)
    except FormatError as error:
        return error


# --------------------------------------------------------------------------- namespaces


def moved(conversation: Conversation, source: str, target: str) -> Conversation:
    """A deep copy of ``conversation`` whose ``source`` fields (on every value: the
    conversation, tools, tool choice, messages, blocks, blocks inside tool results) are
    under ``target``; whatever ``target`` held before is replaced."""
    copy = conversation.model_copy(deep=True)
    copy.extra = _move(copy.extra, source, target)
    for tool in copy.tools:
        tool.extra = _move(tool.extra, source, target)
    if copy.tool_choice is not None:
        copy.tool_choice.extra = _move(copy.tool_choice.extra, source, target)
    for message in copy.messages:
        message.extra = _move(message.extra, source, target)
        _move_blocks(message.content, source, target)
    return copy


def _move_blocks(blocks: list[Block], source: str, target: str) -> None:
    for block in blocks:
        block.extra = _move(block.extra, source, target)
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            _move_blocks(block.content, source, target)


def _move(extra: Extra, source: str, target: str) -> Extra:
    out = {key: value for key, value in extra.items() if key not in (source, target)}
    if source in extra:
        out[target] = extra[source]
    return out

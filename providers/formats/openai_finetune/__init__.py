"""``openai-finetune``: OpenAI fine-tuning JSON Lines, one conversation a line.

A text format: the payload is the JSONL string. Each line is a supervised example
``{"messages", "tools"?, "parallel_tool_calls"?}`` (assistant messages may carry
``weight``) or a preference example ``{"input": {...}, "preferred_output": [...],
"non_preferred_output": [...]}``; ``parse`` gives one conversation per line, read by the
``openai-chat`` module (the line is a Chat Completions request without a model) with its
fields moved to ``extra["openai-finetune"]``. A preference example's ``preferred_output``
messages follow the input's (hint ``$output``); its other fields (``non_preferred_output``)
stay in the conversation's ``preference`` field (so an input with a field of that name is
refused: the two would take each other's place). Each conversation keeps its line verbatim
(hint ``$line``, and ``$line_end``): rendering it back gives the same bytes whenever the
JSON is unchanged.

A conversation from another format becomes one supervised line, written by
:func:`providers.formats.openai_chat.render_request` (so every lossy step of a Chat
Completions request applies, with its warning) and then fitted to what a line holds:

==============================================  ==============================================
sampling parameters, model, stop, seed, user    ``parameter-unsupported`` (a line has none;
                                                no model is filled in)
tool_choice                                     ``parameter-unsupported``
audio blocks; documents other than plain text   ``content-dropped`` (fine-tuning takes neither)
custom (free-text) tools                        ``tool-unsupported`` (function tools only)
request fields a line does not have             ``parameter-unsupported``
==============================================  ==============================================

Per-message ids, timestamps, models, finish reasons, usage and metadata have no place in a
line: as in the ``openai-chat`` module, one info note (``content-dropped``) names them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

import orjson

from providers.formats import openai_chat, register
from providers.formats._archive import Entry, loads_entry, read_entries
from providers.formats._common import hint, require_list, require_mapping
from providers.formats.base import Capabilities, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from ._namespace import moved
from ._render import CHAT, FORMAT_ID, render_line

__all__ = ["FORMAT", "FORMAT_ID", "detect", "iter_parse", "parse", "render", "render_many"]

_HINTS = ("$line", "$line_end", "$shape")


# --------------------------------------------------------------------------- parse


def parse(payload: JSON) -> list[ParseResult]:
    """One conversation per non-blank line of a JSONL string; :class:`FormatError` naming
    the line (``line 3.messages[1].role``) for the first line that is not an example."""
    if not isinstance(payload, str):
        raise FormatError("openai-finetune payloads are JSON Lines text", field="payload")
    results = []
    for number, (line, line_end) in enumerate(_lines(payload), start=1):
        if line.strip():
            results.append(parse_line(line, line_end, f"line {number}"))
    if not results:
        raise FormatError("no lines", field="payload")
    return results


def _lines(text: str) -> Iterator[tuple[str, str]]:
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


# --------------------------------------------------------------------------- render


def render(conversation: Conversation) -> Rendered:
    """The conversation as one line of JSONL (with its line ending): its own line, byte
    for byte, when it was read from one and is unchanged; else a supervised example."""
    line = hint(conversation.extra, FORMAT_ID, "line")
    if not isinstance(line, str):
        return render_line(conversation)
    value = _faithful_value(conversation)
    try:
        same = orjson.loads(line) == value
    except orjson.JSONDecodeError:
        same = False
    text = line if same else orjson.dumps(value).decode()
    return Rendered(text + str(hint(conversation.extra, FORMAT_ID, "line_end", "")))


def _faithful_value(conversation: Conversation) -> JSON:
    chat = moved(conversation, FORMAT_ID, CHAT)
    own = chat.extra.get(CHAT, {})
    shape = own.get("$shape")
    # On a supervised line, "preference" is an unknown field of the line like any other.
    preference = own.pop("preference", None) if shape == "preference" else None
    for key in _HINTS:
        own.pop(key, None)
    if shape != "preference":
        return _chat_render(chat, "request")
    outputs = [m for m in chat.messages if m.extra.get(CHAT, {}).get("$output") == "preferred"]
    inputs = [m for m in chat.messages if all(m is not o for o in outputs)]
    body: dict[str, Any] = {"input": _chat_render(chat.model_copy(update={"messages": inputs}))}
    if own.get("$preferred") != "absent" or outputs:
        answer = Conversation(messages=outputs, extra={CHAT: {"$shape": "messages"}})
        body["preferred_output"] = _chat_render(answer, "messages")
    own.pop("$preferred", None)
    return {**body, **(preference or {})}


def _chat_render(conversation: Conversation, shape: str = "request") -> JSON:
    conversation.extra.setdefault(CHAT, {})["$shape"] = shape
    return openai_chat.render(conversation).payload


def render_many(conversations: Sequence[Conversation]) -> Rendered:
    """One JSONL text holding a line per conversation (a file of one is :func:`render`)."""
    if len(conversations) == 1:
        return render(conversations[0])
    texts, warnings = [], []
    for number, conversation in enumerate(conversations, start=1):
        rendered = render(conversation)
        text = str(rendered.payload)
        last = number == len(conversations)
        texts.append(text if last or text.endswith("\n") else text + "\n")
        warnings.extend(rendered.warnings)
    return Rendered("".join(texts), warnings)


# --------------------------------------------------------------------------- files


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


# --------------------------------------------------------------------------- detect


def detect(payload: JSON) -> int:
    """2 when the text's first lines are all fine-tuning examples, else 0."""
    if not isinstance(payload, str) or not payload.lstrip().startswith("{"):
        return 0
    lines = list(itertools.islice((line for line, _ in _lines(payload) if line.strip()), 20))
    for line in lines:
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            return 0
        body = value.get("input") if isinstance(value, dict) and "input" in value else value
        if not isinstance(body, dict) or not openai_chat.detect(body.get("messages")):
            return 0
    return 2 if lines else 0


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="OpenAI fine-tuning JSONL",
        capabilities=Capabilities(
            roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
            blocks=frozenset({"text", "refusal", "image", "tool_use", "tool_result"}),
            tools=True,
            tool_choice=False,
            parameters=frozenset({"parallel_tool_calls"}),
            reasoning_signatures=False,
            usage=False,
            multi_conversation=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
        kind="text",
        provider="openai",
        render_many=render_many,
        iter_parse=iter_parse,
    )
)

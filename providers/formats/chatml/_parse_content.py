"""A turn's content -> UMF blocks, keeping every character.

Content is read as elements separated by runs of newlines: text, and the tags the role's
template uses (``TAGS``): ``<think>`` becomes a thinking block, ``<tool_call>`` a tool call
(plain text when its JSON is not a call), ``<tool_response>`` a tool result. A tool turn
without tags is one result (``$bare``). Newline runs that differ from what the templates
write are kept as hints: ``$before`` on a block, ``$after`` on the message, ``$pad`` for the
newlines inside a tag. Spaces always stay in the text.

ChatML has no tool-call ids: calls get ``call_<message>_<call>`` and each result answers the
earliest unanswered call, each with an ``id-synthesized`` warning. A result with no call
open stays text (a UMF result always answers a call).

Tools: definitions follow the Qwen2.5/Qwen3 templates, a ``# Tools`` section at the end of
the system turn listing one JSON object per line inside ``<tools></tools>``
(``{"type": "function", "function": {...}}``; a bare ``{"name": ...}`` reads too). Calls are
``{"name": ..., "arguments": ...}`` (arguments an object, or a JSON string some models write).
Text is written the way the templates write it (:func:`~._rules.template_json`). The
source's exact text is kept in a ``$raw`` hint, always: its spacing, key order and escapes
may differ from the template's, and storage may reorder the keys of the parsed objects
(PostgreSQL ``jsonb``). It is written back only while reading it still gives the same UMF
value, so a hint can never override an edit.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from providers.formats._kit.fields import has_reserved_name
from providers.formats._kit.ids import report_synthesized
from providers.formats._kit.wire import parse_arguments
from providers.formats.base import Drift
from providers.formats.chatml._constants import FORMAT_ID, TAGS, TOOLS_HEAD, TOOLS_TAIL
from providers.formats.chatml._rules import canonical_gap
from providers.umf import Block, TextBlock, ThinkingBlock, Tool, ToolResultBlock, ToolUseBlock


@dataclass
class ParseState:
    """What reading one text remembers across turns: calls not yet answered, in order."""

    drift: Drift
    pending: list[tuple[str, str]] = field(default_factory=list)
    message: int = 0
    calls: int = 0


@cache
def _pattern(tags: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"<(" + "|".join(tags) + r")>(.*?)</\1>", re.S)


def block_kind(block: Block) -> str:
    """What a block is written as: ``text``, ``think``, ``tool_call``, ``tool_response``."""
    return {"thinking": "think", "tool_use": "tool_call", "tool_result": "tool_response"}.get(
        block.type, "text"
    )


def parse_content(
    content: str, role: str, path: str, state: ParseState
) -> tuple[list[Block], dict[str, Any]]:
    """The blocks of one turn's content and the message hints they need."""
    state.calls = 0
    if role == "tool" and not _pattern(("tool_response",)).search(content):
        paired = _answer(state, f"{path}.content[0]")
        if paired is None:
            return ([TextBlock(text=content)] if content else []), {}
        result = ToolResultBlock(tool_use_id=paired[0], content=content, name=paired[1])
        result.extra = {FORMAT_ID: {"$bare": True}}
        return [result], {}
    elements, after = _elements(content, TAGS.get(role, ()))
    blocks: list[Block] = []
    previous: str | None = None
    for gap, kind, value in elements:
        block_path = f"{path}.content[{len(blocks)}]"
        block = _block(kind, value, block_path, state)
        if gap != canonical_gap(previous):
            block.extra.setdefault(FORMAT_ID, {})["$before"] = gap
        previous = block_kind(block)
        blocks.append(block)
    return blocks, ({"$after": after} if after else {})


def _elements(content: str, tags: tuple[str, ...]) -> tuple[list[tuple[str, str, str]], str]:
    """``([(newlines before, kind, text or tag body)], newlines at the end)``."""
    pieces: list[tuple[str, str]] = []
    position = 0
    for match in _pattern(tags).finditer(content) if tags else ():
        if match.start() > position:
            pieces.append(("text", content[position : match.start()]))
        pieces.append((match.group(1), match.group(2)))
        position = match.end()
    if position < len(content):
        pieces.append(("text", content[position:]))
    elements: list[tuple[str, str, str]] = []
    gap = ""
    for kind, value in pieces:
        if kind != "text":
            elements.append((gap, kind, value))
            gap = ""
            continue
        middle = value.strip("\n")
        if not middle:
            gap += value
            continue
        lead = value[: len(value) - len(value.lstrip("\n"))]
        elements.append((gap + lead, "text", middle))
        gap = value[len(lead) + len(middle) :]
    return elements, gap


def _block(kind: str, value: str, path: str, state: ParseState) -> Block:
    if kind == "text":
        return TextBlock(text=value)
    lead, middle, trail = split_padding(value)
    hints: dict[str, Any] = {} if (lead, trail) == ("\n", "\n") else {"$pad": [lead, trail]}
    block: Block
    if kind == "think":
        block = ThinkingBlock(text=middle)
    elif kind == "tool_call":
        call = call_from_json(middle, f"call_{state.message}_{state.calls}")
        if call is None:
            return TextBlock(text=f"<tool_call>{value}</tool_call>")  # not a call: text
        block = _record_call(call, path, state)
    else:
        paired = _answer(state, path)
        if paired is None:
            return TextBlock(text=f"<tool_response>{value}</tool_response>")
        block = ToolResultBlock(tool_use_id=paired[0], content=middle, name=paired[1])
    if hints:
        block.extra.setdefault(FORMAT_ID, {}).update(hints)
    return block


def _record_call(call: ToolUseBlock, path: str, state: ParseState) -> ToolUseBlock:
    state.calls += 1
    state.pending.append((call.id, call.name))
    report_synthesized(
        state.drift, "ChatML tool calls have no ids; one was made up", f"{path}.id", call.id
    )
    return call


def _answer(state: ParseState, path: str) -> tuple[str, str] | None:
    """The earliest unanswered call, now answered; None when none is open (the result is
    then kept as text: a UMF result always answers a call)."""
    if not state.pending:
        state.drift.add(
            "content-type-unsupported",
            "the tool response answers no earlier call; kept as text",
            field=path,
            original="tool_result",
            transformed="text",
            severity="info",
        )
        return None
    call_id, name = state.pending.pop(0)
    report_synthesized(
        state.drift,
        "ChatML tool results name no call; paired with the earliest unanswered call",
        f"{path}.tool_use_id",
        call_id,
    )
    return call_id, name


def split_padding(inner: str) -> tuple[str, str, str]:
    """``(lead, middle, trail)`` of a tag's inner text: the templates write one newline
    on each side (``<think>\\n...\\n</think>``)."""
    lead = "\n" if inner.startswith("\n") else ""
    rest = inner[len(lead) :]
    trail = "\n" if rest.endswith("\n") else ""
    return lead, rest[: len(rest) - len(trail)], trail


_MISSING = object()


def split_tools_section(content: str) -> tuple[str, str, list[Tool]] | None:
    """``(system text, newlines before the section, tools)`` when ``content`` ends with
    the tools section, else None (the whole content is then plain text)."""
    if not content.endswith(TOOLS_TAIL) or TOOLS_HEAD not in content:
        return None
    start = content.rfind(TOOLS_HEAD)
    listing = content[start + len(TOOLS_HEAD) : len(content) - len(TOOLS_TAIL)]
    if listing and not listing.startswith("\n"):
        return None
    tools = [tool_from_line(line) for line in listing.split("\n")[1:]]
    if any(tool is None for tool in tools):
        return None
    prefix = content[:start]
    body = prefix.rstrip("\n")
    return body, prefix[len(body) :], [tool for tool in tools if tool is not None]


def tool_from_line(line: str) -> Tool | None:
    value, ok = read_json(line)
    if not ok or not isinstance(value, dict):
        return None
    function = value.get("function") if "function" in value else value
    outer = {k: v for k, v in value.items() if k != "function"} if "function" in value else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        return None
    if has_reserved_name(function) or has_reserved_name(outer or ()):
        return None  # a ``$`` field would pass for a hint in ``extra``: the line stays text
    description, parameters = function.get("description"), function.get("parameters")
    if not isinstance(description, str | None) or not isinstance(parameters, dict | None):
        return None
    fields = {k: v for k, v in function.items() if k not in ("name", "description", "parameters")}
    tool = Tool(name=function["name"], description=description, parameters=parameters)
    tool.extra = {FORMAT_ID: {**fields, "$outer": outer, "$raw": line}}
    return tool


def call_from_json(text: str, call_id: str) -> ToolUseBlock | None:
    """The call a ``<tool_call>`` body describes, or None when it is not one."""
    value, ok = read_json(text)
    if not ok or not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    if has_reserved_name(value):
        return None  # a ``$`` field would pass for a hint in ``extra``: the body stays text
    arguments = value.get("arguments", _MISSING)
    fields = {k: v for k, v in value.items() if k not in ("name", "arguments")}
    hints: dict[str, Any] = {}
    block = ToolUseBlock(id=call_id, name=value["name"])
    if arguments is _MISSING:
        hints["$arguments"] = "absent"
    elif isinstance(arguments, str):
        decoded, decoded_ok = parse_arguments(arguments)
        block.input, block.raw_arguments = (decoded if decoded_ok else {}), arguments
        hints["$arguments"] = "string"
    else:
        block.input = arguments
    block.extra = {FORMAT_ID: {**fields, **hints, "$raw": text}}
    return block


def read_json(text: str) -> tuple[Any, bool]:
    """``(value, ok)`` for JSON text (``(None, False)`` when it is not JSON, including
    the ``NaN`` / ``Infinity`` that Python would otherwise accept)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant), True
    except (ValueError, RecursionError):
        return None, False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")

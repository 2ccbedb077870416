"""Reading Chat Completions messages into UMF messages.

* ``content`` becomes blocks; how it was spelled (string, parts, null, absent) is the
  ``$content`` hint, written only when the renderer's default would spell it otherwise.
* An assistant's ``refusal`` and ``audio`` fields become a refusal / audio block marked
  ``$field``; ``tool_calls`` become tool-use blocks (``raw_arguments`` is always the exact
  argument string); the legacy ``function_call`` a tool-use block with a made-up id.
* ``tool`` messages become role ``tool`` with one tool-result block; legacy ``function``
  messages too (``$role: function``), paired with the latest unanswered ``function_call``.
* ``annotations`` on a string content become the text block's citations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._chat_completions.calls import call_reader
from providers.formats._chat_completions.content import content_shape
from providers.formats._kit.fields import (
    require_list,
    require_mapping,
    require_str,
    split,
    unknown_fields,
)
from providers.formats._kit.paths import at, item, placed_at, placed_under
from providers.formats._kit.wire import parse_arguments
from providers.formats.base import Drift, FormatError
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    MediaSource,
    Message,
    RefusalBlock,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import EMPTY_CONTENT, NAMESPACE, ROLES
from ._parse_parts import parse_part

# The fields each role maps to UMF (role and content are read apart); the others are
# kept verbatim.
_MAPPED_FIELDS = {
    "system": ("name",),
    "developer": ("name",),
    "user": ("name",),
    "assistant": ("name", "refusal", "audio", "tool_calls", "function_call"),
    "tool": ("tool_call_id", "name"),
    "function": ("name",),
}
_HANDLED = ("role", "content")
_TURN_ROLES = frozenset({"system", "developer", "user", "assistant"})
_read_call = call_reader(NAMESPACE, ("function", "custom"))


@dataclass
class ParseState:
    """What reading one payload's messages remembers from message to message."""

    drift: Drift
    call_names: dict[str, str] = field(default_factory=dict)
    legacy_calls: list[str] = field(default_factory=list)
    legacy_count: int = 0


def parse_messages(raw: JSON, path: str, state: ParseState) -> list[Message]:
    """The messages of a ``messages`` array (``path`` is where the array is)."""
    items = require_list(raw, path or "payload")
    # Each message is read with its fields named from the message itself (an empty path):
    # only one with an error or a warning has its own path written, here. Most have
    # neither, and writing ``messages[i]`` for every message was 6% of the parse.
    warnings = state.drift.warnings
    messages = []
    for index, message in enumerate(items):
        known = len(warnings)
        try:
            messages.append(parse_message(message, "", state))
        except FormatError as error:
            raise placed_at(item(path, index), error) from None
        for warning in warnings[known:] if len(warnings) > known else ():
            warning.field = placed_under(item(path, index), warning.field or "")
    return messages


def parse_message(raw: JSON, path: str, state: ParseState) -> Message:
    """One message; :class:`FormatError` naming the field when it is not a valid one."""
    source = raw if type(raw) is dict else require_mapping(raw, path)  # a call saved per message
    role = source.get("role")
    if isinstance(role, str):
        if role in _TURN_ROLES:
            return _parse_turn(source, role, path, state)
        if role == "tool" or role == "function":
            return _parse_result_message(source, role, path, state)
    raise FormatError(f"role must be one of {', '.join(ROLES)}", field=at(path, "role"))


def _parse_turn(source: dict[str, Any], role: str, path: str, state: ParseState) -> Message:
    # The common message (a role, a string content, perhaps a name and tool calls) takes
    # the short way through here: each rarer field is looked at only when it is there (a
    # mapped field given as null stays verbatim, as split keeps it).
    raw_calls = source.get("tool_calls")
    if len(source) == 2 and "content" in source:  # role and content: nothing to split
        fields: dict[str, Any] = {}
        rest: dict[str, Any] = {}
    elif len(source) == 3 and "content" in source and role == "assistant" and raw_calls is not None:
        fields, rest = {"tool_calls": raw_calls}, {}  # tool calls beside the content
    else:
        fields, rest = split(source, _MAPPED_FIELDS[role], handled=_HANDLED, path=path)
    raw_content = source.get("content")
    if isinstance(raw_content, str):
        blocks: list[Block] = [TextBlock(text=raw_content)]
        kind = "string"
    else:
        blocks, kind = _parse_content(source, path)
    name = fields.get("name")
    if name is not None:
        require_str(name, path, "name")
    if "annotations" in rest and role == "assistant" and kind == "string":
        _lift_annotations(blocks, rest)  # the text's citations, while it is the only block
    has_calls = False
    if len(fields) > (name is not None):  # an assistant's refusal, audio or tool calls
        if fields.get("tool_calls") == []:
            rest["tool_calls"] = fields.pop("tool_calls")
        if "refusal" in fields or "audio" in fields:  # ``blocks`` is this message's own list
            blocks += _parse_assistant_fields(fields, path)
        calls = _parse_calls(fields, path, state)
        has_calls = bool(calls)
        blocks += calls
    content_hint = None
    if kind != "string":
        parts = raw_content if isinstance(raw_content, list) else []
        content_hint = None if kind == content_shape(parts, EMPTY_CONTENT[has_calls]) else kind
    return Message(
        role=role,  # type: ignore[arg-type]  # one of _TURN_ROLES
        content=blocks,
        name=name,
        extra=NAMESPACE.extra(rest, content=content_hint) if rest or content_hint else {},
    )


def _parse_content(
    source: dict[str, Any], path: str, parts: str = "content parts"
) -> tuple[list[Block], str]:
    """``(blocks, how content was spelled)`` for content other than a string (``parts``
    names what its array holds, for the error)."""
    if "content" not in source:
        return [], "absent"
    content = source["content"]
    if content is None:
        return [], "null"
    if isinstance(content, list):
        return _parse_parts(content, at(path, "content")), "parts"
    raise FormatError(
        f"content must be a string, an array of {parts} or null", field=at(path, "content")
    )


def _parse_parts(parts: list[Any], path: str) -> list[Block]:
    """The blocks of a content array at ``path``."""
    # A loop, not a list comprehension: CPython 3.11 makes a function of each one and
    # calls it, 1k instructions more for every array of parts.
    blocks: list[Block] = []
    for index, part in enumerate(parts):
        blocks.append(parse_part(part, f"{path}[{index}]"))
    return blocks


def _lift_annotations(blocks: list[Block], rest: dict[str, Any]) -> None:
    # Annotations point into the one string content: they are that text's citations.
    annotations = rest.get("annotations")
    if not annotations or not isinstance(annotations, list) or len(blocks) != 1:
        return
    if not all(isinstance(annotation, dict) for annotation in annotations):
        return
    block = blocks[0]
    if isinstance(block, TextBlock):
        block.citations = rest.pop("annotations")
        block.extra = NAMESPACE.extra({}, citations="annotations")


def _parse_assistant_fields(fields: dict[str, Any], path: str) -> list[Block]:
    blocks: list[Block] = []
    if "refusal" in fields:
        text = require_str(fields["refusal"], at(path, "refusal"))
        blocks.append(RefusalBlock(text=text, extra=NAMESPACE.extra({}, field="refusal")))
    if "audio" in fields:
        audio = require_mapping(fields["audio"], at(path, "audio"))
        audio_id = require_str(audio.get("id"), at(path, "audio.id"))
        # A reference to an earlier spoken reply; a response also carries its data and
        # transcript, kept verbatim beside the id.
        blocks.append(
            AudioBlock(
                source=MediaSource(type="file", file_id=audio_id),
                extra=NAMESPACE.extra(
                    unknown_fields(audio, ("id",), path=at(path, "audio")), field="audio"
                ),
            )
        )
    return blocks


def _parse_calls(fields: dict[str, Any], path: str, state: ParseState) -> list[Block]:
    calls: list[Block] = []
    if "tool_calls" in fields:
        raw_calls = require_list(fields["tool_calls"], path, "tool_calls")
        # As for messages (parse_messages): a call's path is written only for its error.
        for index, raw in enumerate(raw_calls):
            try:
                calls.append(_read_call(raw, "", state.call_names))
            except FormatError as error:
                raise placed_at(item(at(path, "tool_calls"), index), error) from None
    if "function_call" in fields:
        calls.append(_parse_legacy_call(fields["function_call"], at(path, "function_call"), state))
    return calls


def _parse_legacy_call(raw: JSON, path: str, state: ParseState) -> Block:
    # The deprecated single function_call has no id: make one up, so that the function
    # message answering it pairs with it like any tool result.
    call = require_mapping(raw, path)
    name = require_str(call.get("name"), at(path, "name"))
    raw_arguments = require_str(call.get("arguments"), at(path, "arguments"))
    call_id = _synthesize_id(state, path, "call_legacy", "legacy function_call has no id")
    state.legacy_calls.append(call_id)
    state.call_names[call_id] = name
    value, _ = parse_arguments(raw_arguments)
    rest = unknown_fields(call, ("name", "arguments"), path=path)
    return ToolUseBlock(
        id=call_id,
        name=name,
        input=value,
        raw_arguments=raw_arguments,
        extra=NAMESPACE.extra({}, field="function_call", inner=rest or None),
    )


def _synthesize_id(state: ParseState, path: str, prefix: str, why: str) -> str:
    call_id = f"{prefix}_{state.legacy_count}"
    state.legacy_count += 1
    state.drift.add("id-synthesized", why, field=path, transformed=call_id, severity="info")
    return call_id


def _parse_result_message(
    source: dict[str, Any], role: str, path: str, state: ParseState
) -> Message:
    raw_id, content = source.get("tool_call_id"), source.get("content")
    if role == "tool" and len(source) == 3 and type(raw_id) is str and type(content) is str:
        # The common result (role, a string content and the call's id): nothing to split.
        block = ToolResultBlock(
            tool_use_id=raw_id, content=content, name=state.call_names.get(raw_id)
        )
        return Message(role="tool", content=[block], tool_call_id=raw_id)
    fields, rest = split(source, _MAPPED_FIELDS[role], handled=_HANDLED, path=path)
    name = fields.get("name")
    if name is not None:
        require_str(name, path, "name")
    if role == "tool":
        if "tool_call_id" not in fields:
            raise FormatError("a tool message needs tool_call_id", field=at(path, "tool_call_id"))
        call_id = fields["tool_call_id"]
        if type(call_id) is not str:
            call_id = require_str(call_id, path, "tool_call_id")
    else:
        if name is None:
            raise FormatError("a function message needs name", field=at(path, "name"))
        call_id = _answer_legacy_call(state, path)
    if isinstance(content, str):
        kind = "string"
    else:
        blocks, kind = _parse_content(source, path, "text parts")
        content = blocks if kind == "parts" else ""
    block = ToolResultBlock(
        tool_use_id=call_id, content=content, name=name or state.call_names.get(call_id)
    )
    content_hint = None if kind == "string" else kind
    role_hint = "function" if role == "function" else None
    return Message(
        role="tool",
        content=[block],
        name=name,
        tool_call_id=call_id,
        extra=NAMESPACE.extra(rest, content=content_hint, role=role_hint)
        if rest or content_hint or role_hint
        else {},
    )


def _answer_legacy_call(state: ParseState, path: str) -> str:
    if state.legacy_calls:
        return state.legacy_calls.pop(0)
    return _synthesize_id(
        state, path, "call_legacy_orphan", "function message answers no function_call"
    )

"""Forge payloads -> one UMF conversation.

Shapes (the conversation hint ``$shape``): ``messages``, an array of Forge messages;
``message``, one message; ``exchange``, ``{"request": [...], "response": <assistant
message>}`` (other envelope fields kept verbatim). A message is ``{"role", "content"}``,
or ``{"Role", "Content"}`` as Go's encoding/json writes the seed's untagged struct
(``$keys: go``).

Assistant text becomes text, thinking and tool-use blocks; a tool message a tool-result
block. Forge has no call ids: each call gets ``forge_call_<n>`` (``id-synthesized``), and a
result answers the earliest unanswered call of the same tool (a result that answers none
gets ``forge_result_<n>``). When writing the blocks back would not give the very text that
was read (spacing, the JSON call form, entity escapes...), or could stop giving it (a call's
arguments are written in key order, which storage does not keep), the text is kept as the
hint ``$text`` with a digest of the blocks (``$digest``): it comes back verbatim while the
blocks are unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from providers.formats._kit.fields import require_mapping, require_str, unknown_fields
from providers.formats._kit.ids import report_synthesized
from providers.formats._kit.paths import at
from providers.formats._message_lists.shapes import (
    parse_result,
    read_payload,
    read_role,
)
from providers.formats.base import Drift, ParseResult
from providers.formats.forge._constants import DIALECT, FORMAT_ID, KEYS, NS, ROLES
from providers.formats.forge._parse_text import (
    Call,
    Segment,
    call_block,
    read_assistant,
    read_result,
)
from providers.formats.forge._render import fingerprint, message_text
from providers.umf import JSON, Block, Message, TextBlock, ToolResultBlock, ToolUseBlock


@dataclass
class ParseState:
    """What reading one payload remembers from message to message."""

    drift: Drift = field(default_factory=lambda: Drift(FORMAT_ID))
    pending: list[tuple[str, str]] = field(default_factory=list)  # (call id, tool name)
    calls: int = 0
    orphans: int = 0


def parse(payload: JSON) -> list[ParseResult]:
    """Read one conversation from an array of Forge messages, one message or an
    exchange; :class:`FormatError` (with the field) for anything else."""
    state = ParseState()
    read = partial(parse_message, state=state)
    return parse_result(
        lambda: read_payload(payload, read, DIALECT), FORMAT_ID, state.drift.warnings
    )


def parse_message(raw: JSON, path: str, state: ParseState) -> Message:
    """One Forge message; :class:`FormatError` naming the field when it is not one."""
    source = require_mapping(raw, path or "payload")
    keys = "go" if "Role" in source and "role" not in source else "lower"
    role_key, content_key = KEYS[keys]
    role = read_role(source, path, ROLES, role_key)
    text = require_str(source.get(content_key), at(path, content_key))
    blocks = _read_blocks(role, text, path, state)
    result = blocks[0] if blocks and isinstance(blocks[0], ToolResultBlock) else None
    # Calls are written with their arguments in key order, which storage does not keep
    # (PostgreSQL jsonb sorts object keys): their text is always kept.
    has_calls = any(isinstance(block, ToolUseBlock) for block in blocks)
    exact = not has_calls and message_text(role, blocks) == text
    return Message(
        role=role,  # type: ignore[arg-type]  # checked against ROLES above
        content=blocks,
        tool_call_id=result.tool_use_id if result else None,
        name=result.name if result else None,
        extra=NS.extra(
            unknown_fields(source, (role_key, content_key), path=path),
            keys="go" if keys == "go" else None,
            text=None if exact else text,
            digest=None if exact else fingerprint(blocks),
        ),
    )


def _read_blocks(role: str, text: str, path: str, state: ParseState) -> list[Block]:
    if role == "assistant":
        return [_assistant_block(segment, path, state) for segment in read_assistant(text)]
    if role == "tool":
        result = read_result(text)
        if result is not None:
            name, content, is_error = result
            call_id = _answer(name, path, state)
            block = ToolResultBlock(
                tool_use_id=call_id, content=content, is_error=is_error or None, name=name
            )
            return [block]
    return [TextBlock(text=text)] if text else []


def _assistant_block(segment: Segment, path: str, state: ParseState) -> Block:
    if isinstance(segment, str):
        return TextBlock(text=segment)
    if not isinstance(segment, Call):
        return segment  # a thinking block
    call_id = f"forge_call_{state.calls}"
    state.calls += 1
    state.pending.append((call_id, segment.name))
    report_synthesized(
        state.drift, "Forge tool calls have no id; one was made up", at(path, "content"), call_id
    )
    return call_block(segment, call_id)


def _answer(name: str, path: str, state: ParseState) -> str:
    for position, (call_id, call_name) in enumerate(state.pending):
        if call_name == name:
            del state.pending[position]
            return call_id
    call_id = f"forge_result_{state.orphans}"
    state.orphans += 1
    report_synthesized(
        state.drift,
        "this tool result answers no earlier call; it was given an id of its own",
        at(path, "content"),
        call_id,
    )
    return call_id

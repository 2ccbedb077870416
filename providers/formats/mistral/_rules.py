"""The ordering rules of the Mistral API, applied to messages converted from another format.

In order: media set aside by :mod:`._turns` goes in a user message after its group (an
assistant message and its tool results); same-role runs become one message
(``role-merged``; Mistral models want user and assistant to alternate); a user message
right after a tool message gets a bridge assistant message before it
(``message-reordered``: "Unexpected role 'user' after role 'tool'"); a final assistant
message is marked ``prefix`` (the last message must be user or tool, or a prefix:
``parameter-defaulted``, info). Tool call ids are nine letters and digits.
"""

from __future__ import annotations

import string
from typing import Any

from providers.formats._chat_completions.render import Dialect
from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import report_defaulted
from providers.formats._kit.ids import full_match

from ._constants import BRIDGE_TEXT, DEFAULT_MODEL, LABEL, NS, PARAMETERS
from ._render_turns import Written

# Whether Mistral takes a tool call id: "Tool call id was ... but must be a-z, A-Z, 0-9,
# with a length of 9".
valid_tool_call_id = full_match(r"[a-zA-Z0-9]{9}")
_BASE62 = string.digits + string.ascii_letters


def make_tool_call_id(digest: str) -> str:
    """A 9-character base-62 tool call id built from a (hex) hash."""
    number = int(digest, 16)
    chars = []
    for _ in range(9):
        number, remainder = divmod(number, 62)
        chars.append(_BASE62[remainder])
    return "".join(chars)


DIALECT = Dialect(NS, LABEL, DEFAULT_MODEL, PARAMETERS, valid_tool_call_id, make_tool_call_id)


def order(written: list[Written], ctx: Context) -> list[dict[str, Any]]:
    """The ``messages`` array for converted turns."""
    placed: list[Written] = []
    carry: list[dict[str, Any]] = []
    carried_from = ""
    for entry in written:
        if carry and entry.role != "tool":
            placed.append(_carrier(carry, carried_from))
            carry = []
        if entry.wire is not None:
            placed.append(entry)
        if entry.carry:
            carry.extend(entry.carry)
            carried_from = entry.path
    if carry:
        placed.append(_carrier(carry, carried_from))
    merged = _bridge(_merge(placed, ctx), ctx)
    _mark_prefix(merged, ctx)
    return [entry.wire for entry in merged if entry.wire is not None]


def _carrier(chunks: list[dict[str, Any]], path: str) -> Written:
    return Written({"role": "user", "content": chunks}, path, synthetic=True)


def _merge(placed: list[Written], ctx: Context) -> list[Written]:
    merged: list[Written] = []
    for entry in placed:
        previous = merged[-1] if merged else None
        if previous is None or previous.role != entry.role or entry.role == "tool":
            merged.append(entry)
            continue
        if not (previous.synthetic or entry.synthetic):
            ctx.drift.add(
                "role-merged",
                "Mistral wants user and assistant turns to alternate; merged with the "
                "message before",
                field=entry.path,
                original=entry.role,
                transformed=entry.role,
                details={"merged_into": previous.path},
            )
        assert previous.wire is not None and entry.wire is not None
        _join(previous.wire, entry.wire)
        previous.synthetic = previous.synthetic and entry.synthetic
    return merged


def _join(into: dict[str, Any], other: dict[str, Any]) -> None:
    chunks = _chunks(into.get("content")) + _chunks(other.get("content"))
    if chunks or "content" in into or "content" in other:
        into["content"] = chunks
    calls = (into.get("tool_calls") or []) + (other.get("tool_calls") or [])
    if calls:
        into["tool_calls"] = calls
    for key, value in other.items():
        into.setdefault(key, value)


def _chunks(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return list(content) if isinstance(content, list) else []


def _bridge(merged: list[Written], ctx: Context) -> list[Written]:
    out: list[Written] = []
    for entry in merged:
        if entry.role == "user" and out and out[-1].role == "tool":
            bridge = {"role": "assistant", "content": BRIDGE_TEXT}
            ctx.drift.add(
                "message-reordered",
                "Mistral refuses a user message right after a tool message; "
                "a bridge assistant message was inserted",
                field=entry.path,
                transformed=bridge,
            )
            out.append(Written(bridge, entry.path, synthetic=True))
        out.append(entry)
    return out


def _mark_prefix(merged: list[Written], ctx: Context) -> None:
    last = merged[-1] if merged else None
    if last is None or last.wire is None or last.role != "assistant":
        return
    last.wire["prefix"] = True
    report_defaulted(
        last.path,
        {"prefix": True},
        ctx.drift,
        "Mistral wants the last message from the user or a tool; the final assistant "
        "message is sent as a prefix to continue",
    )

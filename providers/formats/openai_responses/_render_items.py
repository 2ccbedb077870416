"""Writing UMF messages as Responses items (one UMF message may give several).

What each role can hold: system and developer messages take text, user messages every
input part, assistant messages text and refusals (``output_text`` / ``refusal`` parts of an
item that has its ``msg_`` id, else one easy ``{"role": "assistant", "content": text}``
message per text block) beside ``reasoning``, ``function_call`` and ``custom_tool_call``
items; tool results become ``function_call_output`` items whose output may hold text,
images and files.

When the conversation is not rendered as the openai-responses document it was read from:

* content a role cannot hold moves to a user message after it (``message-reordered``),
  audio is dropped (``content-dropped``), a refusal outside an item with an id becomes text
  (``content-type-unsupported``), citations outside such an item are dropped;
* reasoning goes back only as the ``reasoning`` item this format read (provider
  ``openai-responses``, with its ``rs_`` id); any other is dropped (``reasoning-dropped``),
  and the item that followed it loses its own id too (``id-rewritten`` to None), since the
  API refuses an item that followed reasoning without that reasoning;
* item ids (a user or system message's too) that do not start with the prefix of their
  type are left out (``id-rewritten``),
  call ids the API would refuse are rewritten (``id-rewritten``, info);
* a tool result's error flag is said in its text (``capability-unsupported``).
"""

from __future__ import annotations

from typing import Any

from providers.formats._chat_completions.pairing import carried, loose_tool_message
from providers.formats._kit.drift import (
    report_blocks_foreign_extra,
    report_field_dropped,
    report_foreign_extra,
    report_reasoning_details,
    report_reasoning_text,
)
from providers.formats._kit.extra import put_fields
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import report_call_not_made
from providers.umf import Block, Message, ThinkingBlock, ToolResultBlock, ToolUseBlock

from ._constants import FORMAT_ID, ITEM_TYPES, NS, OUTPUT_ITEMS, UNMAPPED_ITEMS
from ._render_assistant import AssistantWriter, checked_id, drop_reasoning, result_entry
from ._render_parts import render_part
from ._rules import Context, Entry


def render_message(message: Message, index: int, ctx: Context) -> list[Entry]:
    """The items for UMF message ``index``, in their natural order."""
    path = item("messages", index)
    _report_message_fields(message, path, ctx)
    if message.role == "tool":
        entries = _tool_entries(message, index, path, ctx)
    elif message.role == "assistant":
        entries = AssistantWriter(message, index, path, ctx).run()
    else:
        entries = _turn_entries(message, index, path, ctx)
    for position, kept in _unmapped_items(message, path, ctx):
        call_id = kept.get("call_id") if kept.get("type") in OUTPUT_ITEMS else None
        result = call_id if isinstance(call_id, str) else None  # an output the API ran
        entries.insert(
            min(position, len(entries)), Entry(kept, path, index, position, result=result)
        )
    return entries


def _unmapped_items(message: Message, path: str, ctx: Context) -> list[tuple[int, dict[str, Any]]]:
    """The items kept verbatim on ``message``; in a request only those the API can take:
    of a type it knows (one added after this code cannot be checked), outputs with a call id."""
    kept = []
    for number, entry in enumerate(NS.unmapped(message.extra, UNMAPPED_ITEMS)):
        wire = entry.get("item")
        if not isinstance(wire, dict):
            continue
        kind = wire.get("type")
        if kind in OUTPUT_ITEMS and not isinstance(wire.get("call_id"), str):
            why = "a tool output without a call id answers nothing"
        elif kind is not None and kind not in ITEM_TYPES:
            why = f"item type {kind!r} is not one this code knows the API to take"
        else:
            kept.append((entry["at"], wire))
            continue
        if ctx.faithful:
            kept.append((entry["at"], wire))
            continue
        field = at(path, f"extra.{FORMAT_ID}.{UNMAPPED_ITEMS}[{number}]")
        ctx.drift.add("content-dropped", why, field=field, original=wire)
    return kept


def _report_message_fields(message: Message, path: str, ctx: Context) -> None:
    report_foreign_extra(message.extra, path, ctx)
    report_blocks_foreign_extra(message.content, path, ctx)
    if message.name is not None and message.role != "tool":
        why = "OpenAI Responses messages have no author name; left out"
        report_field_dropped(path, "name", message.name, ctx.drift, why, severity="warning")
    why = "reasoning text outside reasoning items cannot be sent to OpenAI Responses"
    report_reasoning_text(message, path, ctx.drift, why)
    why = "reasoning details of another provider cannot be sent to OpenAI Responses"
    report_reasoning_details(message, path, ctx.drift, why)


def _misplaced(block: Block, path: str, role: str, ctx: Context) -> None:
    """Reasoning and tool calls outside assistant messages: nothing can carry them there."""
    if isinstance(block, ThinkingBlock):
        drop_reasoning(block, path, f"a {role} message cannot hold reasoning", ctx)
        return
    assert isinstance(block, ToolUseBlock)
    report_call_not_made(block, path, ctx.drift, f"a {role} message cannot make tool calls")


# --------------------------------------------------------------------------- user, system


def _turn_entries(message: Message, index: int, path: str, ctx: Context) -> list[Entry]:
    role = message.role
    parts: list[tuple[int, dict[str, Any]]] = []
    entries: list[Entry] = []
    carry: list[dict[str, Any]] = []
    for position, block in enumerate(message.content):
        block_path = item(at(path, "content"), position)
        if isinstance(block, ThinkingBlock | ToolUseBlock):
            _misplaced(block, block_path, role, ctx)
        elif isinstance(block, ToolResultBlock):
            entries.append(result_entry(block, block_path, index, ctx, owner=None, order=position))
        elif (part := render_part(block, block_path, ctx, role)) is None:
            continue
        elif ctx.faithful or role == "user" or part["type"] == "input_text":
            parts.append((position, part))
        else:
            carry.append(carried(part, block, block_path, role, ctx))
    if ctx.faithful or parts or not message.content:
        order = parts[0][0] if parts else 0
        wire = {"role": role, "content": _message_content(message, [p for _, p in parts], ctx)}
        fields = NS.fields(message.extra)
        if not ctx.faithful:
            fields = checked_id(fields, "msg", path, ctx)
        entries.append(Entry(put_fields(wire, fields), path, index, order))
    if carry:
        entries.append(Entry({"role": "user", "content": carry}, path, index, len(message.content)))
    return sorted(entries, key=lambda entry: entry.order)


def _message_content(message: Message, parts: list[dict[str, Any]], ctx: Context) -> Any:
    plain_text = len(parts) == 1 and parts[0].keys() == {"type", "text"}
    plain_text = plain_text and parts[0]["type"] == "input_text"
    if ctx.faithful:
        string = NS.hint(message.extra, "content") == "string" and plain_text
        return parts[0]["text"] if string else parts
    return parts[0]["text"] if plain_text else parts or ""


# --------------------------------------------------------------------------- tool results


def _tool_entries(message: Message, index: int, path: str, ctx: Context) -> list[Entry]:
    results = [block for block in message.content if isinstance(block, ToolResultBlock)]
    if not results:
        return loose_tool_message(
            message,
            path,
            ctx,
            as_result=lambda block: [result_entry(block, path, index, ctx, owner=message)],
            as_user=lambda user: _turn_entries(user, index, path, ctx),
        )
    owner = message if len(results) == 1 else None
    entries: list[Entry] = []
    carry: list[dict[str, Any]] = []
    for position, block in enumerate(message.content):
        block_path = item(at(path, "content"), position)
        if isinstance(block, ToolResultBlock):
            entries.append(result_entry(block, block_path, index, ctx, owner, order=position))
        elif isinstance(block, ThinkingBlock | ToolUseBlock):
            _misplaced(block, block_path, "tool", ctx)
        elif (part := render_part(block, block_path, ctx, "user")) is not None:
            carry.append(carried(part, block, block_path, "tool", ctx))
    entries[-1].carry.extend(carry)
    return entries

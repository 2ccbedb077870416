"""Reading one ShareGPT entry into a UMF conversation.

Turns become messages (``human`` user, ``gpt`` assistant, ``system`` system,
``function_call`` an assistant message of tool calls, ``observation`` a tool message);
other role names (``user``, ``chatgpt``, ``bing``...) are read as their meaning, the name
kept as the ``$from`` hint. Calls get deterministic ids (``call_<turn>_<n>``,
``id-synthesized``) and observations answer the latest unanswered call. ``<image>`` and
``<audio>`` placeholders become image/audio blocks holding the entry's ``images`` /
``audios`` paths in order; ``<video>`` stays text (UMF has no video). The top-level
``system`` is a leading system message (``$field``), ``tools`` (a JSON string) tools.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from providers.formats._archive.values import read_tool
from providers.formats._archive.wiring import Assets
from providers.formats._kit.fields import (
    has_reserved_name,
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats._kit.ids import report_synthesized
from providers.formats._kit.paths import at
from providers.formats._kit.wire import parse_data_uri
from providers.formats.base import Drift, FormatError
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    Conversation,
    ImageBlock,
    MediaSource,
    Message,
    TextBlock,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import ENTRY_KEYS, MEDIA, NS, ROLE_OF


@dataclass
class _State:
    drift: Drift
    media: dict[str, list[str]] = field(default_factory=dict)
    pending: list[tuple[str, str]] = field(default_factory=list)


def parse_entry(raw: JSON, path: str, drift: Drift, assets: Assets | None = None) -> Conversation:
    """One entry (``path`` names it in errors; ``assets``: a dataset is no zip, unused)."""
    entry = require_mapping(raw, path or "payload")
    turns = require_list(entry.get("conversations"), at(path, "conversations"))
    state = _State(drift, _media_lists(entry, path))
    hints: dict[str, Any] = {}
    messages = _system_field(entry, path)
    for index, turn in enumerate(turns):
        messages.append(_turn(turn, f"{at(path, 'conversations')}[{index}]", index, state))
    conversation = Conversation(messages=messages)
    if "tools" in entry:
        conversation.tools, hints["tools"] = _tools(entry["tools"], at(path, "tools"))
    rest = unknown_fields(entry, ENTRY_KEYS, path=path)
    for key in MEDIA:
        if key in entry and key not in state.media:
            rest[key] = entry[key]  # not a list of paths: kept as it was
        elif key in state.media:
            hints[f"unplaced_{key}"] = state.media[key] or None
            hints[f"empty_{key}"] = True if not entry[key] else None
    if "tools" in entry and hints["tools"] is None:
        rest["tools"] = entry["tools"]  # not tool definitions we can read: kept as they were
    conversation.extra = NS.extra(rest, shape="entry", **hints)
    return conversation


def _media_lists(entry: dict[str, Any], path: str) -> dict[str, list[str]]:
    lists: dict[str, list[str]] = {}
    for key in MEDIA:
        value = entry.get(key)
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            lists[key] = list(value)
    return lists


def _system_field(entry: dict[str, Any], path: str) -> list[Message]:
    if "system" not in entry:
        return []
    text = require_str(entry["system"], at(path, "system"))
    return [
        Message(role="system", content=[TextBlock(text=text)], extra=NS.extra({}, field="system"))
    ]


def _turn(raw: JSON, path: str, index: int, state: _State) -> Message:
    turn = require_mapping(raw, path)
    name = require_str(turn.get("from"), f"{path}.from")
    role = ROLE_OF.get(name)
    if role is None:
        raise FormatError(f"unknown role {name!r}", field=f"{path}.from")
    value = require_str(turn.get("value"), f"{path}.value")
    rest = unknown_fields(turn, ("from", "value"), path=path)
    from_hint = None if name in ("human", "gpt", "system", "function_call", "observation") else name
    if name == "function_call":
        calls = _calls(value, path, index, state)
        if calls is not None:
            return Message(role="assistant", content=calls, extra=NS.extra(rest, value=None))
        from_hint = name  # not a call we can read: kept as text
    elif role == "tool" and state.pending:
        return _observation(value, rest, from_hint, state)
    content = [TextBlock(text=value)] if role == "tool" else _with_media(value, state)
    return Message(role=role, content=content, extra=NS.extra(rest, **{"from": from_hint}))  # type: ignore[arg-type]


def _calls(value: str, path: str, index: int, state: _State) -> list[Block] | None:
    try:
        decoded = json.loads(value)
    except ValueError:
        return None
    items = decoded if isinstance(decoded, list) else [decoded]
    if not items or not all(_is_call(item) for item in items):
        return None
    blocks: list[Block] = []
    for number, call in enumerate(items):
        call_id = f"call_{index}_{number}"
        report_synthesized(state.drift, "ShareGPT calls have no ids", path, call_id)
        blocks.append(_call_block(call, call_id))
    state.pending = [(block.id, block.name) for block in blocks if isinstance(block, ToolUseBlock)]
    # The text is kept: storage may reorder the keys of the arguments, and JSON equality
    # (not the text) says whether it still holds the calls.
    NS.add_hints(blocks[0].extra, list=isinstance(decoded, list) or None, value=value)
    return blocks


def _is_call(item: JSON) -> bool:
    # A call or tool with a field named ``$...`` is not read as one (it would pass for a
    # hint in ``extra`` and be lost): it stays as it was written.
    return (
        isinstance(item, dict) and isinstance(item.get("name"), str) and not has_reserved_name(item)
    )


def _call_block(call: dict[str, Any], call_id: str) -> ToolUseBlock:
    arguments = call.get("arguments", {})
    raw_arguments = None
    hints: dict[str, Any] = {"id": "synthesized"}
    if isinstance(arguments, str):
        raw_arguments, hints["arguments"] = arguments, "string"
        try:
            arguments = json.loads(arguments)
        except ValueError:
            arguments = {}
    elif "arguments" not in call:
        hints["arguments"] = "absent"
    rest = {k: v for k, v in call.items() if k not in ("name", "arguments")}  # see _is_call
    return ToolUseBlock(
        id=call_id,
        name=call["name"],
        input=arguments,
        raw_arguments=raw_arguments,
        extra=NS.extra(rest, **hints),
    )


def _observation(value: str, rest: dict[str, Any], from_hint: str | None, state: _State) -> Message:
    call_id, name = state.pending.pop(0)
    block = ToolResultBlock(tool_use_id=call_id, content=value, name=name)
    return Message(
        role="tool",
        tool_call_id=call_id,
        content=[block],
        extra=NS.extra(rest, **{"from": from_hint}),
    )


_PLACEHOLDER = re.compile("(" + "|".join(re.escape(token) for token in MEDIA.values()) + ")")


def _with_media(value: str, state: _State) -> list[Block]:
    """Text and media blocks in the order the placeholders put them."""
    blocks: list[Block] = []
    text: list[str] = []
    for piece in _PLACEHOLDER.split(value):
        key = next((k for k, token in MEDIA.items() if token == piece), None)
        if key is None or not state.media.get(key):
            text.append(piece)
            continue
        if "".join(text):
            blocks.append(TextBlock(text="".join(text)))
        text = []
        blocks.append(_media_block(key, state.media[key].pop(0)))
    if "".join(text):
        blocks.append(TextBlock(text="".join(text)))
    return blocks


def _media_block(key: str, path: str) -> Block:
    source = media_source(path)
    extra = NS.extra({}, path=path if source.type == "base64" else None)
    if key == "audios":
        return AudioBlock(source=source, extra=extra)
    return ImageBlock(source=source, extra=extra)


def media_source(path: str) -> MediaSource:
    """Where a media path points: a URL, inline data, or a file beside the dataset."""
    decoded = parse_data_uri(path) if path.startswith("data:") else None
    if decoded is not None:
        return MediaSource(type="base64", media_type=decoded[0], data=decoded[1])
    if path.startswith(("http://", "https://")):
        return MediaSource(type="url", url=path)
    return MediaSource(type="file", file_id=path)


def _tools(raw: JSON, path: str) -> tuple[list[Tool], str | None]:
    """``(tools, the hint that writes them back)``: the JSON string as it was, or
    ``list`` for a JSON array."""
    value = raw
    if isinstance(raw, str):
        try:
            value = json.loads(raw) if raw.strip() else None
        except ValueError:
            return [], None
    if not isinstance(value, list) or not all(_is_call(tool) for tool in value):
        return [], None
    # No ``$`` names (see _is_call): the fields kept are the rest, verbatim.
    tools = [read_tool(tool, tool["name"], NS, path) for tool in value]
    return tools, raw if isinstance(raw, str) else "list"

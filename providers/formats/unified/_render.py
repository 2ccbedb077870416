"""A conversation -> UMF JSON: the canonical dump (defaults omitted) plus whatever the
document it was read from spelled out (:mod:`._parse`), string content,
OpenAI-shaped tools and a bare list of messages as they came in. Nothing is ever lost:
UMF holds everything."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator
from typing import Any

import orjson

from providers._umf_base import UMFModel
from providers.formats._kit.extra import hint
from providers.formats.base import Rendered
from providers.formats.unified._constants import FORMAT_ID, SPELLED_HINTS
from providers.umf import JSON, Conversation, Message, Tool, ToolResultBlock


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as UMF JSON (nothing is ever lost: UMF holds everything)."""
    messages = [_render_message(m) for m in conversation.messages]
    if hint(conversation.extra, FORMAT_ID, "shape") == "messages":
        return Rendered(messages)
    out = conversation.model_dump(
        mode="json", exclude_defaults=True, exclude={"messages", "tools", "extra"}
    )
    own = conversation.extra.get(FORMAT_ID, {})
    present = own.get("$present", [])
    _put_back(
        conversation,
        out,
        {**own, "$present": [key for key in present if key not in ("messages", "tools")]},
    )
    if conversation.tool_choice is not None and isinstance(out.get("tool_choice"), dict):
        _restore(conversation.tool_choice, out["tool_choice"])
    out["messages"] = messages
    if conversation.tools or "tools" in present:
        out["tools"] = [_render_tool(t) for t in conversation.tools]
    own_extra = {k: v for k, v in conversation.extra.items() if k != FORMAT_ID}
    if own_extra:
        out["extra"] = own_extra
    return Rendered(out)


def render_stream(head: Conversation, messages: Iterable[Message]) -> Iterator[bytes]:
    """:func:`render`'s payload as compact JSON bytes, written a message at a time: ``head``
    is the conversation without its messages, which ``messages`` give one by one, so that
    a conversation of any length is written in the memory of one message. The bytes are
    orjson's of the payload :func:`render` gives for the whole conversation (UMF holds
    everything: there are never warnings)."""
    payload = render(head).payload
    before, after = b"", b""
    if isinstance(payload, dict):
        marker = f"messages-{uuid.uuid4()}"  # a string nothing in the document holds
        payload["messages"] = marker
        before, after = orjson.dumps(payload).split(orjson.dumps(marker), 1)
    yield before + b"["
    for index, message in enumerate(messages):
        yield (b"," if index else b"") + orjson.dumps(_render_message(message))
    yield b"]" + after


def _render_message(message: Message) -> dict[str, Any]:
    own = dict(message.extra.get(FORMAT_ID, {}))
    out = message.model_dump(mode="json", exclude_defaults=True, exclude={"extra"})
    _restore_blocks(message, out)
    _put_back(message, out, own)
    for name in SPELLED_HINTS:
        own.pop(name, None)
    content_hint = own.pop("$content", None)
    if content_hint == "string" and len(message.content) == 1 and out.get("content"):
        block = out["content"][0]
        if block.get("type") == "text" and set(block) == {"type", "text"}:
            out["content"] = block["text"]
    elif content_hint == "null" and not message.content:
        out["content"] = None
    # Conversations read before $written keep their timestamp string here.
    timestamp = own.pop("$timestamp", None)
    if timestamp is not None and message.timestamp is not None:
        out["timestamp"] = timestamp
    other_extra = {k: v for k, v in message.extra.items() if k != FORMAT_ID}
    if other_extra:
        out["extra"] = other_extra
    out.update(own)
    return out


def _render_tool(tool: Tool) -> dict[str, Any]:
    own = dict(tool.extra.get(FORMAT_ID, {}))
    body = tool.model_dump(mode="json", exclude_defaults=True, exclude={"extra"})
    _put_back(tool, body, own)
    for name in SPELLED_HINTS:
        own.pop(name, None)
    other_extra = {k: v for k, v in tool.extra.items() if k != FORMAT_ID}
    if other_extra:
        body["extra"] = other_extra
    if own.pop("$shape", None) == "function":
        return {"type": "function", "function": body, **own}
    return body


def _put_back(value: UMFModel, out: dict[str, Any], own: dict[str, Any]) -> None:
    """Write into ``out``, ``value``'s canonical dump, what its document spelled otherwise
    (:class:`~._parse.Spelled`, kept as ``$present``, ``$present_in`` and ``$written``)."""
    for key in own.get("$present", ()):
        out.setdefault(key, _dump_default(value, key))
    # In document order: an object that held only defaults is put back before its keys.
    for path in own.get("$present_in", ()):
        parent, key = path.rsplit(".", 1)
        target, inner = _at(value, out, parent)
        if isinstance(target, UMFModel) and isinstance(inner, dict):
            inner.setdefault(key, _dump_default(target, key))
    for path, written in own.get("$written", {}).items():
        parent, _, key = path.rpartition(".")
        target, inner = _at(value, out, parent) if parent else (value, out)
        if isinstance(inner, dict) and key in inner:
            inner[key] = written


def _at(value: Any, out: Any, path: str) -> tuple[Any, Any]:
    """The value at a dotted ``path`` below ``value`` and its part of ``out`` (None, None
    where ``out`` has nothing there: the value was changed since it was read)."""
    for step in path.split("."):
        if isinstance(value, list) and isinstance(out, list):
            index = int(step)
            if index >= len(out) or index >= len(value):
                return None, None
            value, out = value[index], out[index]
        elif isinstance(out, dict) and step in out:
            value, out = getattr(value, step), out[step]
        else:
            return None, None
    return value, out


def _restore(value: UMFModel, out: dict[str, Any]) -> None:
    """``out``, the canonical dump of ``value`` (a block or a tool choice), as its document
    spelled it: without the format's hints in ``extra``, with the defaults it spelled out,
    for it and the blocks inside it."""
    extra = out.get("extra")
    if extra is not None and FORMAT_ID in extra:
        own = extra.pop(FORMAT_ID)
        if not extra:
            del out["extra"]
        _put_back(value, out, own)
    _restore_blocks(value, out)


def _restore_blocks(value: UMFModel, out: dict[str, Any]) -> None:
    """:func:`_restore` the blocks of a message's or tool result's ``content``."""
    blocks_out = out.get("content")
    if not isinstance(blocks_out, list) or not isinstance(value, Message | ToolResultBlock):
        return
    assert isinstance(value.content, list)  # as its dump is
    for block, block_out in zip(value.content, blocks_out, strict=True):
        _restore(block, block_out)


def _dump_default(model: UMFModel, key: str) -> JSON:
    value = getattr(model, key)
    if key == "extra":
        return {name: fields for name, fields in value.items() if name != FORMAT_ID}
    if isinstance(value, UMFModel):
        return value.model_dump(mode="json", exclude_defaults=True)
    return value

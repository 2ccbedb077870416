"""Writing a conversation as a ``conversations.json`` entry: one read from this format back
as it was (another format's is written by ``_render_foreign``).

Everything comes from the conversation itself and the hints ``_parse`` left: the node
order, parents and children lists, the root, null messages, the content objects and the
raw ``create_time`` numbers (used while they still name the message's timestamp).
"""

from __future__ import annotations

from typing import Any

from providers.formats._archive.values import kept_epoch, put_back
from providers.formats._kit.wire import arguments_string
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    ImageBlock,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import FORMAT_ID, NS, UNMAPPED_PARTS
from ._parse import written_parent
from ._rules import children_from


def render_conversation(conversation: Conversation) -> dict[str, Any]:
    """The entry ``conversation`` was read from (see the module docstring)."""
    own = conversation.extra.get(FORMAT_ID, {})
    kept_root = own.get("$root")
    root = kept_root["key"] if isinstance(kept_root, dict) else None
    pairs = [(m.id or "", written_parent(m, root)) for m in conversation.messages]
    children = children_from(pairs)
    mapping: dict[str, Any] = {}
    if root is not None:
        node = {**kept_root["node"]}  # type: ignore[index]
        mapping[root] = _with_children(node, own, children.get(root, []))
    for message in conversation.messages:
        mapping[message.id or ""] = _node(message, root, children.get(message.id, []))
    out: dict[str, Any] = {}
    if conversation.metadata.title is not None:
        out["title"] = conversation.metadata.title
    if conversation.metadata.timestamp is not None:
        out["create_time"] = kept_epoch(conversation.metadata.timestamp, own.get("$create_time"))
    out["mapping"] = mapping
    if conversation.parameters.model is not None:
        out["default_model_slug"] = conversation.parameters.model
    return {**out, **{k: v for k, v in own.items() if not k.startswith("$")}}


def _with_children(
    node: dict[str, Any], own: dict[str, Any], computed: list[str]
) -> dict[str, Any]:
    if own.get("$no_children"):
        return node
    node["children"] = own.get("$children", computed)
    return node


def _node(message: Message, root: str | None, computed: list[str]) -> dict[str, Any]:
    own = message.extra.get(FORMAT_ID, {})
    node: dict[str, Any] = {} if own.get("$no_node_id") else {"id": own.get("$node_id", message.id)}
    if not own.get("$no_message"):
        node["message"] = None if own.get("$null_message") else render_message(message)
    if not own.get("$no_parent"):
        node["parent"] = written_parent(message, root)
    _with_children(node, own, computed)
    return {**node, **(own.get("$node") or {})}


def render_message(message: Message) -> dict[str, Any]:
    """The ``message`` object of a node read from this format."""
    own = message.extra.get(FORMAT_ID, {})
    author: dict[str, Any] = {"role": message.role}
    if message.name is not None:
        author["name"] = message.name
    out: dict[str, Any] = {"author": {**author, **(own.get("$author") or {})}}
    if not own.get("$no_id"):
        out["id"] = message.id
    if message.timestamp is not None:
        out["create_time"] = kept_epoch(message.timestamp, own.get("$create_time"))
    blocks = [block for block in _blocks(message) if NS.hint(block.extra, "attachment") is None]
    out["content"] = own["content"] if "content" in own else render_content(blocks, own)
    fields = NS.fields(message.extra)
    fields.pop("content", None)  # both are the content's
    fields.pop(UNMAPPED_PARTS, None)
    metadata = fields.get("metadata")
    if isinstance(metadata, dict) and message.model is not None:
        fields["metadata"] = {**metadata, "model_slug": message.model}
    return {**out, **fields}


def _blocks(message: Message) -> list[Block]:
    """The blocks the content object is made of: a result's, or a call's text."""
    content = message.content
    if len(content) == 1 and isinstance(content[0], ToolResultBlock):
        inner = content[0].content
        return [TextBlock(text=inner)] if isinstance(inner, str) else list(inner)
    if len(content) == 1 and isinstance(content[0], ToolUseBlock):
        call = content[0]
        kind = NS.hint(call.extra, "call")
        if kind == "json":
            text = arguments_string(call.input, call.raw_arguments)
        else:
            text = str(call.input.get(kind, "")) if isinstance(call.input, dict) else ""
        return [TextBlock(text=text, extra=NS.extra({}, key="text"))]
    return content


def render_content(blocks: list[Block], extra: dict[str, Any]) -> dict[str, Any]:
    """The content object of blocks read from this format (``extra`` is the message's
    own namespace: its ``$content_type``, ``$content`` and unmapped parts)."""
    kind = extra["$content_type"]
    out: dict[str, Any] = {"content_type": kind, **(extra.get("$content") or {})}
    if kind in ("text", "multimodal_text"):
        parts = [_render_part(block) for block in blocks]
        out["parts"] = put_back(parts, extra.get(UNMAPPED_PARTS))
    elif kind == "thoughts":
        out["thoughts"] = [_render_thought(block) for block in blocks]
    else:
        for block in blocks:
            out[NS.hint(block.extra, "key")] = getattr(block, "text", "")
    return out


def _render_part(block: Block) -> Any:
    part = NS.hint(block.extra, "part")
    if isinstance(block, ImageBlock | AudioBlock):
        return part
    if isinstance(block, TextBlock) and part is not None:
        return {**part, "text": block.text}
    return block.text if isinstance(block, TextBlock) else ""


def _render_thought(block: Block) -> Any:
    own = block.extra.get(FORMAT_ID, {})
    if "$thought" in own:
        return own["$thought"]
    return {**NS.fields(block.extra), "content": getattr(block, "text", "")}

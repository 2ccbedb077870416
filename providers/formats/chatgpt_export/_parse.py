"""Reading one ChatGPT export conversation (a ``mapping`` tree) into UMF.

Every node of the mapping is kept: the root (no parent, no message) as the conversation's
``$root`` hint, every other node as a message with ``id`` = the node id and ``parent_id``
= its parent (None under the root), in the order of :func:`node_order`. What the node
says that UMF does not (extra node fields, a node id other than its key or none at all,
a parent or children list that the tree does not imply, a null message) is kept as hints
on the message. A message's ``author.role`` is its role, ``author.name`` its name,
``create_time`` its timestamp (the number kept as ``$create_time``),
``metadata.model_slug`` its model and ``metadata.finish_details`` its finish reason; its
``content`` is read by ``_content``. An assistant message addressed to a tool
(``recipient`` is not ``all``) is a tool call, and the tool messages after it are its
results: ChatGPT gives calls no ids, so each gets ``call_<sha256 of the node id>``
(``id-synthesized``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from providers.formats._archive.values import epoch_time
from providers.formats._archive.wiring import Assets
from providers.formats._kit.fields import refuse_kept_name, require_mapping, unknown_fields
from providers.formats._kit.ids import report_synthesized
from providers.formats._kit.paths import at
from providers.formats._kit.wire import parse_arguments
from providers.formats.base import Drift, FormatError
from providers.umf import (
    JSON,
    Block,
    Conversation,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import (
    FINISH_REASONS,
    FORMAT_ID,
    HIDDEN_CONTENT,
    NODE_KEYS,
    NS,
    ROLES,
    UNMAPPED_PARTS,
)
from ._parse_content import attachment_blocks, parse_content, require_content
from ._rules import children_from, latest_leaf, node_order, parent_of


@dataclass
class _Reader:
    drift: Drift
    assets: Assets | None
    mapping: dict[str, Any]
    path: str
    root: str | None
    open_calls: dict[str, str | None] = field(default_factory=dict)


def parse_conversation(
    raw: JSON, path: str, drift: Drift, assets: Assets | None = None
) -> Conversation:
    """One conversation of ``conversations.json``; ``assets`` finds files of the zip."""
    entry = require_mapping(raw, path or "payload")
    mapping = require_mapping(entry.get("mapping"), at(path, "mapping"))
    for key, node in mapping.items():
        require_mapping(node, at(path, f"mapping.{key}"))
    current = entry.get("current_node")
    if not (isinstance(current, str) and current in mapping):
        current = latest_leaf(mapping)
        if current is not None:
            drift.add(
                "parameter-defaulted",
                "the conversation names no current node: the most recent answer is taken as "
                "its main thread",
                field=at(path, "current_node"),
                original=entry.get("current_node"),
                transformed=current,
            )
    order = node_order(mapping, current, path)
    root = _root(order, mapping)
    reader = _Reader(drift, assets, mapping, at(path, "mapping"), root)
    messages = [_node(key, reader) for key in order if key != root]
    conversation = Conversation(messages=messages)
    own: dict[str, Any] = {"$shape": "conversation"}
    if root is not None:
        node = mapping[root]
        fields = unknown_fields(node, ("children",), path=at(path, f"mapping.{root}"))
        own["$root"] = {"key": root, "node": fields}
    _children_hints(conversation, mapping, root, own)
    mapped = ["mapping"]
    if isinstance(entry.get("title"), str):
        conversation.metadata.title = entry["title"]
        mapped.append("title")
    model = entry.get("default_model_slug")
    if isinstance(model, str) and model not in ("", "auto"):
        # The model of the conversation where its messages name none (2026 exports).
        conversation.parameters.model = model
        mapped.append("default_model_slug")
    created = epoch_time(entry.get("create_time"))
    if created is not None:
        conversation.metadata.timestamp = created
        own["$create_time"] = entry["create_time"]
        mapped.append("create_time")
    conversation.extra = {FORMAT_ID: {**unknown_fields(entry, mapped, path=path), **own}}
    return conversation


def _root(order: list[str], mapping: dict[str, Any]) -> str | None:
    # The first node, when it is the usual placeholder: no parent, no message.
    if not order:
        return None
    node = mapping[order[0]]
    return order[0] if node.get("parent") is None and node.get("message") is None else None


def written_parent(message: Message, root: str | None) -> Any:
    """The ``parent`` a message's node is written with."""
    if message.parent_id is not None:
        return message.parent_id
    own = message.extra.get(FORMAT_ID, {})
    return own.get("$parent", root)


def _children_hints(
    conversation: Conversation, mapping: dict[str, Any], root: str | None, own: dict[str, Any]
) -> None:
    pairs = [(m.id or "", written_parent(m, root)) for m in conversation.messages]
    computed = children_from(pairs)
    holders: list[tuple[str, dict[str, Any]]] = [
        (m.id or "", m.extra.setdefault(FORMAT_ID, {})) for m in conversation.messages
    ]
    if root is not None:
        holders.append((root, own))
    for key, holder in holders:
        node = mapping[key]
        if "children" not in node:
            holder["$no_children"] = True
        elif node["children"] != computed.get(key, []):
            holder["$children"] = node["children"]


def _node(key: str, reader: _Reader) -> Message:
    node = reader.mapping[key]
    node_path = f"{reader.path}.{key}"
    parent = parent_of(node, reader.mapping)
    parent_id = parent if parent is not None and parent != reader.root else None
    if node.get("message") is None:
        message = Message(role="system", id=key, parent_id=parent_id)
        own: dict[str, Any] = {"$null_message": True}
        if "message" not in node:
            own["$no_message"] = True
    else:
        message = _message(node["message"], f"{node_path}.message", key, parent_id, reader)
        own = message.extra.setdefault(FORMAT_ID, {})
    node_rest = unknown_fields(node, NODE_KEYS, path=node_path)
    if node_rest:
        own["$node"] = node_rest
    if "id" not in node:
        own["$no_node_id"] = True
    elif node["id"] != key:
        own["$node_id"] = node["id"]
    if "parent" not in node:
        own["$no_parent"] = True
    elif node["parent"] != (parent_id if parent_id is not None else reader.root):
        own["$parent"] = node["parent"]
    message.extra[FORMAT_ID] = own
    return message


def _message(raw: JSON, path: str, key: str, parent_id: str | None, reader: _Reader) -> Message:
    source = require_mapping(raw, path)
    author = require_mapping(source.get("author"), f"{path}.author")
    role = author.get("role")
    if role not in ROLES:
        raise FormatError(
            f"author role must be one of {', '.join(ROLES)}", field=f"{path}.author.role"
        )
    name = author.get("name") if isinstance(author.get("name"), str) else None
    refuse_kept_name(source, UNMAPPED_PARTS, path)
    content = require_content(source.get("content"), f"{path}.content")
    blocks, own = parse_content(content, f"{path}.content", reader.assets)
    message = Message(role=role, id=key, parent_id=parent_id, name=name)
    mapped = ["author", "content"]
    if source.get("id") == key:
        mapped.append("id")
    elif "id" not in source:
        own["$no_id"] = True
    message.timestamp = epoch_time(source.get("create_time"))
    if message.timestamp is not None:
        own["$create_time"] = source["create_time"]
        mapped.append("create_time")
    rest = unknown_fields(source, mapped, path=path)
    _read_metadata(message, rest)
    author_keys = ("role", "name") if name is not None else ("role",)
    author_rest = unknown_fields(author, author_keys, path=f"{path}.author")
    own["$author"] = author_rest or None
    message.content = _calls_and_results(message, blocks, source, path, own, reader)
    if not any(isinstance(block, ToolUseBlock | ToolResultBlock) for block in message.content):
        message.content += attachment_blocks(source.get("metadata"), content, reader.assets)
    message.hidden = is_hidden(source, own.get("$content_type"))
    message.extra = {FORMAT_ID: {**rest, **{k: v for k, v in own.items() if v is not None}}}
    return message


def is_hidden(source: dict[str, Any], content_type: Any) -> bool:
    """Whether ChatGPT keeps the message out of the person's sight: the profile, custom
    instructions and memories it adds, and nodes its metadata marks hidden."""
    metadata = source.get("metadata")
    return content_type in HIDDEN_CONTENT or (
        isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation") is True
    )


def _read_metadata(message: Message, rest: dict[str, Any]) -> None:
    metadata = rest.get("metadata")
    if not isinstance(metadata, dict):
        return
    if isinstance(metadata.get("model_slug"), str):
        message.model = metadata["model_slug"]
        rest["metadata"] = {k: v for k, v in metadata.items() if k != "model_slug"}
    details = metadata.get("finish_details")
    if isinstance(details, dict) and isinstance(details.get("type"), str):
        message.provider_finish_reason = details["type"]
        message.finish_reason = FINISH_REASONS.get(details["type"])


def _calls_and_results(
    message: Message,
    blocks: list[Block],
    source: dict[str, Any],
    path: str,
    own: dict[str, Any],
    reader: _Reader,
) -> list[Block]:
    key = message.id or ""
    recipient = source.get("recipient")
    reader.open_calls[key] = None
    if message.role == "assistant" and isinstance(recipient, str) and recipient != "all":
        call = _call(blocks, recipient, own, key)
        if call is not None:
            reader.open_calls[key] = call.id
            report_synthesized(
                reader.drift,
                "ChatGPT tool calls have no ids; one is made from the node id",
                path,
                call.id,
            )
            return [call]
    parent = parent_of(reader.mapping[key], reader.mapping)
    call_id = reader.open_calls.get(parent or "")
    if message.role == "tool" and call_id is not None:
        reader.open_calls[key] = call_id
        message.tool_call_id = call_id
        is_error = True if own.get("$content_type") == "system_error" else None
        result = ToolResultBlock(
            tool_use_id=call_id, content=blocks, name=message.name, is_error=is_error
        )
        return [result]
    return blocks


def _call(
    blocks: list[Block], recipient: str, own: dict[str, Any], key: str
) -> ToolUseBlock | None:
    kind = own.get("$content_type")
    if kind not in ("code", "text") or len(blocks) != 1 or not isinstance(blocks[0], TextBlock):
        return None
    if own.get("unmapped_parts") or (
        kind == "code" and "$key" not in blocks[0].extra.get(FORMAT_ID, {})
    ):
        return None
    text = blocks[0].text
    call_id = "call_" + hashlib.sha256(key.encode()).hexdigest()[:24]
    decoded, ok = parse_arguments(text)
    if ok and isinstance(decoded, dict):
        return ToolUseBlock(
            id=call_id,
            name=recipient,
            input=decoded,
            raw_arguments=text,
            extra=NS.extra({}, call="json"),
        )
    field_name = "code" if kind == "code" else "text"
    return ToolUseBlock(
        id=call_id, name=recipient, input={field_name: text}, extra=NS.extra({}, call=field_name)
    )

"""A conversation from another format as a ChatGPT export conversation.

A ChatGPT message holds one content object from one author, so a UMF message may become
several chained nodes: its reasoning a ``thoughts`` node, its text (and text documents) a
``text`` node, each tool call a node addressed to the tool (``recipient``), each tool
result a ``tool`` node. The tree is kept (``parent_id``), under a ``client-created-root``
node; ids are the messages' own or deterministic uuids. A tool message answers the call
before it on its thread, so a result whose message is placed on another thread (a parent
elsewhere, or none where only some messages name theirs) is written after its call's
message instead, and one whose call is nowhere before it is written as text. See the
package docstring for the warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._archive.foreign import (
    PlainText,
    StableIds,
    report_call_dropped,
    report_call_id_dropped,
    report_request,
    result_text,
    thinking_text,
)
from providers.formats._kit.drift import (
    report_block_as_text,
    report_developer,
    report_message_metadata,
)
from providers.formats._kit.wire import arguments_string
from providers.formats.base import Drift, Rendered
from providers.umf import (
    Block,
    Conversation,
    Message,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    main_path,
)

from ._constants import ROOT_ID, WIRE_FINISH, WORDS

_TEXT = PlainText(
    citations="ChatGPT export citations have their own shape",
    as_text=lambda block: f"a {block.type} is written as text",
    dropped=lambda block: (
        f"a ChatGPT export refers only to ChatGPT's own files; this {block.type} has none"
    ),
)
_text = _TEXT.text
_RESULTS = "ChatGPT tool messages"  # which have no error flag
_NO_MESSAGE_METADATA = "a ChatGPT export has no per-message usage or metadata; left out"


@dataclass
class _Context:
    drift: Drift
    ids: StableIds
    mapping: dict[str, Any] = field(default_factory=dict)
    last_node: dict[str, str] = field(default_factory=dict)
    # ChatGPT pairs a tool message with the call just before it, so a result is written
    # after its call: the key of the message holding each call, and the node that
    # message's next result goes under (its last node, then its last result's).
    call_owner: dict[str, str] = field(default_factory=dict)
    chain_end: dict[str, str] = field(default_factory=dict)

    def add(self, node_id: str, parent: str, message: dict[str, Any] | None) -> str:
        """Add a node under ``parent``; its id."""
        self.mapping[node_id] = {
            "id": node_id,
            "message": message,
            "parent": parent,
            "children": [],
        }
        self.mapping[parent]["children"].append(node_id)
        return node_id

    def on_thread(self, call_id: str, node: str) -> bool:
        """Whether the call ``call_id`` was written on the thread that ends at ``node``."""
        owner = self.call_owner.get(call_id)
        if owner is None:
            return False
        call_node, key = self.last_node[owner], node
        while key is not None and key != call_node:
            key = self.mapping[key]["parent"]
        return key is not None


def render_foreign(conversation: Conversation) -> Rendered:
    """An export conversation for a conversation read from another format."""
    ctx = _Context(Drift(WORDS.format_id), StableIds.of(conversation))
    ctx.mapping[ROOT_ID] = {"id": ROOT_ID, "message": None, "parent": None, "children": []}
    unsupported = conversation.parameters.model_dump(exclude_defaults=True)
    unsupported.pop("model", None)
    report_request(
        conversation,
        ctx.drift,
        WORDS,
        parameters=unsupported,
        parameters_message="a ChatGPT export has no request parameters",
    )
    report_message_metadata(
        enumerate(conversation.messages),
        ctx.drift,
        _NO_MESSAGE_METADATA,
        held=("id", "timestamp", "model", "finish_reason"),
    )
    previous = ROOT_ID
    for index, message in enumerate(conversation.messages):
        WORDS.report_message(message, f"messages[{index}]", ctx.drift)
        # A message naming no parent follows the one before it, as storage reads a tree.
        parent = ctx.last_node.get(message.parent_id, ROOT_ID) if message.parent_id else previous
        parent = _after_calls(message, index, parent, ctx)
        previous = _place(message, index, parent, ctx)
        ctx.last_node[message.id or f"#{index}"] = previous
        _note_calls(message, message.id or f"#{index}", ctx)
    path = main_path(conversation)
    current = (
        ctx.last_node.get(path[-1].id or f"#{len(conversation.messages) - 1}") if path else None
    )
    conversation_id = ctx.ids.uuid("conversation")
    created = (
        conversation.metadata.timestamp.timestamp() if conversation.metadata.timestamp else None
    )
    out: dict[str, Any] = {
        "title": conversation.metadata.title or "",
        "create_time": created,
        "update_time": created,
        "mapping": ctx.mapping,
        "moderation_results": [],
        "current_node": current or ROOT_ID,
        "conversation_id": conversation_id,
        "default_model_slug": conversation.parameters.model,
        "id": conversation_id,
    }
    return Rendered(out, ctx.drift.warnings)


def _after_calls(message: Message, index: int, parent: str, ctx: _Context) -> str:
    """``parent``, unless the message holds a tool result whose call was written on
    another thread (its parent, or the message before it, is on another branch): then the node
    after the message holding that call, so that the result reads as its answer."""
    for block in message.content:
        if not isinstance(block, ToolResultBlock) or block.tool_use_id not in ctx.call_owner:
            continue
        if ctx.on_thread(block.tool_use_id, parent):
            continue
        moved = ctx.chain_end[ctx.call_owner[block.tool_use_id]]
        ctx.drift.add(
            "message-reordered",
            "ChatGPT pairs a tool result with the call just before it; the message is "
            "written after the message holding its call",
            field=f"messages[{index}].parent_id",
            original=message.parent_id,
            transformed=moved,
            # Without a parent of its own it had no place in the tree to lose.
            severity="info" if message.parent_id is None else "warning",
        )
        return moved
    return parent


def _note_calls(message: Message, key: str, ctx: _Context) -> None:
    """Remember where the message's calls were written, and that its results extend the
    thread of the calls they answer."""
    last = ctx.last_node[key]
    for block in message.content:
        if isinstance(block, ToolUseBlock) and message.role == "assistant":
            ctx.call_owner[block.id] = key
            ctx.chain_end[key] = last
        elif isinstance(block, ToolResultBlock) and ctx.on_thread(block.tool_use_id, last):
            ctx.chain_end[ctx.call_owner[block.tool_use_id]] = last


def _place(message: Message, index: int, parent: str, ctx: _Context) -> str:
    """Add the nodes of one message under ``parent``; the id of its last node."""
    path = f"messages[{index}]"
    role = message.role
    if role == "developer":
        report_developer(path, ctx.drift, "ChatGPT has no developer role; written as system")
        role = "system"
    groups = _groups(message, path, role, parent, ctx)
    if not groups:
        groups = [({"content_type": "text", "parts": []}, role, "all", None)]
    base = message.id or ctx.ids.uuid(path)
    node = parent
    for number, (content, author_role, recipient, name) in enumerate(groups):
        node_id = base if number == 0 else f"{base}-{number}"
        wire = _message(node_id, message, content, author_role, recipient, name)
        node = ctx.add(node_id, node, wire)
    return node


def _message(
    node_id: str,
    message: Message,
    content: dict[str, Any],
    role: str,
    recipient: str,
    name: str | None,
) -> dict[str, Any]:
    metadata: dict[str, Any] = {}
    if message.model is not None:
        metadata["model_slug"] = message.model
    if message.finish_reason is not None or message.provider_finish_reason is not None:
        reason = WIRE_FINISH.get(message.finish_reason or "", message.provider_finish_reason)
        metadata["finish_details"] = {"type": reason}
    if message.hidden:
        metadata["is_visually_hidden_from_conversation"] = True
    return {
        "id": node_id,
        "author": {"role": role, "name": name, "metadata": {}},
        "create_time": message.timestamp.timestamp() if message.timestamp else None,
        "update_time": None,
        "content": content,
        "status": "finished_successfully",
        "end_turn": None,
        "weight": 1.0,
        "metadata": metadata,
        "recipient": recipient,
        "channel": None,
    }


Group = tuple[dict[str, Any], str, str, str | None]


def _groups(message: Message, path: str, role: str, parent: str, ctx: _Context) -> list[Group]:
    groups: list[Group] = []
    texts: list[str] = []
    calls: set[str] = set()  # the message's own calls, written before its later blocks
    for position, block in enumerate(message.content):
        block_path = f"{path}.content[{position}]"
        if isinstance(block, ToolResultBlock) and not (
            block.tool_use_id in calls or ctx.on_thread(block.tool_use_id, parent)
        ):
            texts.append(_unanswered(block, block_path, role, ctx))
        elif isinstance(block, ToolUseBlock | ToolResultBlock | ThinkingBlock):
            if texts:
                groups.append(_text_group(texts, role))
                texts = []
            group = _special(block, block_path, message, ctx)
            if group is not None:
                groups.append(group)
                if isinstance(block, ToolUseBlock):
                    calls.add(block.id)
        else:
            text = _text(block, block_path, ctx)
            if text is not None:
                texts.append(text)
    if texts:
        groups.append(_text_group(texts, role))
    return groups


def _text_group(texts: list[str], role: str) -> Group:
    author = "user" if role == "tool" else role  # plain text from a tool message
    return ({"content_type": "text", "parts": texts}, author, "all", None)


def _unanswered(block: ToolResultBlock, path: str, role: str, ctx: _Context) -> str:
    """The text of a result whose call is not before it on its thread (or nowhere in the
    conversation): a tool message there would answer no call."""
    author = _text_group([], role)[1]
    why = (
        "a ChatGPT tool message answers the call before it, and this result's call is not "
        f"on its thread; written as text from the {author}"
    )
    report_block_as_text(block, path, ctx.drift, why)
    return result_text(block, path, ctx, _text, _RESULTS)


def _special(block: Block, path: str, message: Message, ctx: _Context) -> Group | None:
    if isinstance(block, ToolUseBlock):
        if message.role != "assistant":
            report_call_dropped(path, ctx.drift)
            return None
        why = "ChatGPT tool calls have no ids; the result follows its call"
        report_call_id_dropped(block, path, ctx.drift, why)
        text = arguments_string(block.input, block.raw_arguments)
        return ({"content_type": "text", "parts": [text]}, "assistant", block.name, None)
    if isinstance(block, ToolResultBlock):
        return (
            {
                "content_type": "text",
                "parts": [result_text(block, path, ctx, _text, _RESULTS)],
            },
            "tool",
            "all",
            block.name,
        )
    assert isinstance(block, ThinkingBlock)
    thinking = thinking_text(block, path, ctx.drift, "ChatGPT thoughts carry no signature")
    if thinking is None:
        return None
    thought = {"summary": "", "content": thinking, "chunks": [], "finished": True}
    return ({"content_type": "thoughts", "thoughts": [thought]}, "assistant", "all", None)

"""``claude-export``: the Claude.ai data export (``conversations.json``, or the export zip).

Undocumented by Anthropic; read as observed. ``parse`` takes the list of conversations
(or one conversation) and gives one UMF conversation per entry, keyed by its ``uuid``;
``iter_parse`` streams them from the file or from the zip (``conversations.json``, or its
shards ``conversations-000.json``... in a large account's export). How an
entry is read is in ``_parse`` and ``_blocks``: messages form a tree through
``parent_message_uuid``; there is no current node, so the main path is the one to the last
message of the list (the most recently created, which is always a leaf).

A conversation read from this format renders back as exactly its entry. Any other becomes
an entry with these warnings:

==============================================  ==============================================
tool messages (results)                         into the assistant message that made the call,
                                                ``role-merged``
tool results beside other content               moved there too, ``message-reordered``
system and developer messages                   human messages, ``system-message-transformed``
images, audio, documents that are not text      ``content-dropped`` (the export keeps no bytes)
plain-text documents                            ``attachments`` (no name: ``document.txt``,
                                                ``parameter-defaulted``)
thinking with a signature or encrypted data     display-only thinking, ``signature-stripped``
redacted thinking                               ``reasoning-dropped``
refusals                                        text, ``content-type-unsupported``
citations                                       ``content-dropped``
tool calls outside assistant messages           ``content-dropped``
tool definitions                                ``tool-unsupported``
parameters, tool_choice                         ``parameter-unsupported``
other formats' fields                           ``field-unknown`` (info)
a message's ``name`` (not a tool's)             ``content-dropped`` (info)
message models, finish reasons, usage and       ``content-dropped`` (info), one for all
metadata                                        messages
==============================================  ==============================================

Message models, usage and finish reasons have no place in the export and are not warned
about; trees are kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import BinaryIO

from providers.formats import register
from providers.formats._archive import (
    Entry,
    check_depth,
    checked,
    conversations_member,
    entry_error,
    read_entries,
)
from providers.formats._common import hint, require_list
from providers.formats.base import Capabilities, Drift, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from ._blocks import FORMAT_ID
from ._parse import parse_conversation, render_conversation
from ._render import render_foreign

__all__ = [
    "FORMAT",
    "FORMAT_ID",
    "detect",
    "entry_identity",
    "iter_entries",
    "iter_parse",
    "parse",
    "read_entry",
    "render",
    "render_many",
]


def parse(payload: JSON) -> list[ParseResult]:
    """One conversation per entry of ``conversations.json`` (or the one entry given)."""
    if isinstance(payload, dict):
        return [parse_one(payload, "")]
    entries = require_list(payload, "payload")
    if not entries:
        raise FormatError("no conversations", field="payload")
    results = [parse_one(entry, f"[{index}]") for index, entry in enumerate(entries)]
    for result in results:
        result.conversation.extra[FORMAT_ID]["$file"] = "list"
    return results


def parse_one(entry: JSON, path: str, *, depth_checked: bool = False) -> ParseResult:
    """The conversation of one entry; ``path`` names it in errors (``depth_checked``: the
    file reader has bounded its nesting)."""
    if not depth_checked:
        check_depth(entry, path or "payload")
    drift = Drift(FORMAT_ID)
    conversation = checked(lambda: parse_conversation(entry, path, drift), path)
    return ParseResult(conversation, drift.warnings, key=_key(entry))


def _key(entry: JSON) -> str | None:
    key = entry.get("uuid") if isinstance(entry, dict) else None
    return key if isinstance(key, str) else None


def render(conversation: Conversation) -> Rendered:
    """A file of one: the entry alone when it was read alone, else a list holding it."""
    rendered = render_entry(conversation)
    if hint(conversation.extra, FORMAT_ID, "file") == "list" or not _is_own(conversation):
        rendered.payload = [rendered.payload]
    return rendered


def render_many(conversations: Sequence[Conversation]) -> Rendered:
    """``conversations.json`` for several conversations (a file of one is :func:`render`)."""
    if len(conversations) == 1:
        return render(conversations[0])
    entries, warnings = [], []
    for conversation in conversations:
        rendered = render_entry(conversation)
        entries.append(rendered.payload)
        warnings.extend(rendered.warnings)
    return Rendered(entries, warnings)


def _is_own(conversation: Conversation) -> bool:
    return bool(hint(conversation.extra, FORMAT_ID, "shape") == "conversation")


def render_entry(conversation: Conversation) -> Rendered:
    """One entry of ``conversations.json``."""
    if _is_own(conversation):
        return Rendered(render_conversation(conversation))
    return render_foreign(conversation)


def iter_parse(binary: BinaryIO) -> Iterator[ParseResult | FormatError]:
    """The conversations of ``conversations.json`` or of the export zip, one at a time;
    one that cannot be read is a :class:`FormatError` naming its position."""
    for entry in iter_entries(binary):
        yield read_entry(entry)


def iter_entries(binary: BinaryIO) -> Iterator[Entry]:
    """The entries of ``conversations.json`` or of the export zip, not read yet."""
    return read_entries(binary, members=conversations_member, lines="never")


def entry_identity(entry: Entry) -> tuple[str | None, JSON] | None:
    """An entry's conversation uuid and the entry itself (what identifies it)."""
    return None if entry.error is not None else (_key(entry.value), entry.value)


def read_entry(entry: Entry) -> ParseResult | FormatError:
    """The conversation of one entry of :func:`iter_entries`, or why it cannot be read."""
    if entry.error is not None:
        return entry.error
    try:
        result = parse_one(entry.value, entry.position, depth_checked=entry.depth_checked)
    except FormatError as error:
        return entry_error(error, entry.value, "uuid")
    result.conversation.extra[FORMAT_ID]["$file"] = "list"
    return result


def detect(payload: JSON) -> int:
    """2 for Claude.ai export conversations (``uuid`` and ``chat_messages`` of
    ``sender``/``uuid`` messages), else 0."""
    entries = payload if isinstance(payload, list) else [payload]
    if not entries:
        return 0
    for entry in entries[:20]:
        if not isinstance(entry, dict) or not isinstance(entry.get("chat_messages"), list):
            return 0
        for message in entry["chat_messages"][:20]:
            if not isinstance(message, dict) or not {"uuid", "sender"} <= message.keys():
                return 0
    return 2


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="Claude.ai data export",
        capabilities=Capabilities(
            roles=frozenset({"user", "assistant"}),
            blocks=frozenset({"text", "document", "tool_use", "tool_result", "thinking"}),
            tools=False,
            tool_choice=False,
            parameters=frozenset(),
            reasoning_signatures=False,
            usage=False,
            tree=True,
            multi_conversation=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
        provider="anthropic",
        render_many=render_many,
        iter_parse=iter_parse,
        iter_entries=iter_entries,
        entry_identity=entry_identity,
        read_entry=read_entry,
    )
)

"""``chatgpt-export``: the ChatGPT data export (``conversations.json``, or the export zip).

Undocumented by OpenAI; read as observed. ``parse`` takes the list of conversations (or
one conversation) and gives one UMF conversation per entry, keyed by its
``conversation_id`` (else ``id``). ``iter_parse`` streams them from the file or from the
zip, whose conversations may be split over ``conversations-000.json``, ``-001``...;
images the zip holds (named after their ``file-service://`` / ``sediment://`` file id)
become base64 image blocks. Every branch of the ``mapping`` tree is kept, the thread to
``current_node`` last so that it is the main path (see ``_tree`` and ``_parse``); the
content types are read by ``_content``.

A conversation read from this format renders back as exactly its entry. Any other becomes
an entry with these warnings:

==============================================  ==============================================
developer messages                              system, ``system-message-transformed``
tool-call ids                                   ``id-rewritten`` to None (a call is a message
                                                addressed to the tool; its result follows)
tool result error flag                          "Error: " text, ``capability-unsupported``
a tool result placed on another thread than     written after its call's message,
its call (a parent elsewhere, or none in a      ``message-reordered`` (info when the message
tree where only some messages name theirs)      named no parent)
a tool result with no call before it on its     text, ``content-type-unsupported``
thread
images, audio, documents that are not text      ``content-dropped`` (an export points only to
                                                ChatGPT's own files)
plain-text documents, refusals                  text, ``content-type-unsupported``
thinking with a signature or encrypted data     a ``thoughts`` node, ``signature-stripped``
redacted thinking                               ``reasoning-dropped``
citations                                       ``content-dropped``
tool calls outside assistant messages           ``content-dropped``
tool definitions                                ``tool-unsupported``
parameters other than model, tool_choice        ``parameter-unsupported``
other formats' fields                           ``field-unknown`` (info)
a message's ``name`` (not a tool's)             ``content-dropped`` (info)
message usage and metadata                      ``content-dropped`` (info), one for all
                                                messages
==============================================  ==============================================

Trees, timestamps, per-message models and finish reasons are kept.
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

from ._content import Assets
from ._foreign import render_foreign
from ._parse import parse_conversation
from ._render import render_conversation
from ._shared import FORMAT_ID

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


def parse_one(
    entry: JSON, path: str, assets: Assets | None = None, *, depth_checked: bool = False
) -> ParseResult:
    """The conversation of one entry; ``path`` names it in errors, ``assets`` finds the
    files of a zip export (``depth_checked``: the file reader has bounded its nesting)."""
    if not depth_checked:
        check_depth(entry, path or "payload")
    drift = Drift(FORMAT_ID)
    conversation = checked(lambda: parse_conversation(entry, path, drift, assets), path)
    return ParseResult(conversation, drift.warnings, key=_key(entry))


def _key(entry: JSON) -> str | None:
    key = entry.get("conversation_id") or entry.get("id") if isinstance(entry, dict) else None
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
    """An entry's conversation id and the entry itself (what identifies it)."""
    return None if entry.error is not None else (_key(entry.value), entry.value)


def read_entry(entry: Entry) -> ParseResult | FormatError:
    """The conversation of one entry of :func:`iter_entries`, or why it cannot be read."""
    if entry.error is not None:
        return entry.error
    assets = None
    if entry.archive is not None:
        assets = entry.archive.asset
    try:
        result = parse_one(entry.value, entry.position, assets, depth_checked=entry.depth_checked)
    except FormatError as error:
        return entry_error(error, entry.value, "conversation_id", "id")
    result.conversation.extra[FORMAT_ID]["$file"] = "list"
    return result


def detect(payload: JSON) -> int:
    """2 for ChatGPT export conversations (a ``mapping`` of nodes with ``children``
    beside ``current_node`` or ``title``), else 0."""
    entries = payload if isinstance(payload, list) else [payload]
    if not entries:
        return 0
    for entry in entries[:20]:
        if not isinstance(entry, dict) or not isinstance(entry.get("mapping"), dict):
            return 0
        if not {"current_node", "title"} & entry.keys():
            return 0
        nodes = list(entry["mapping"].values())[:20]
        if not all(isinstance(node, dict) and "children" in node for node in nodes):
            return 0
    return 2


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="ChatGPT data export",
        capabilities=Capabilities(
            roles=frozenset({"system", "user", "assistant", "tool"}),
            blocks=frozenset({"text", "image", "audio", "tool_use", "tool_result", "thinking"}),
            tools=False,
            tool_choice=False,
            parameters=frozenset({"model"}),
            reasoning_signatures=False,
            usage=False,
            tree=True,
            multi_conversation=True,
            hidden_context=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
        provider="openai",
        render_many=render_many,
        iter_parse=iter_parse,
        iter_entries=iter_entries,
        entry_identity=entry_identity,
        read_entry=read_entry,
    )
)

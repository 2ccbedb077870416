"""``claude-export``: the Claude.ai data export (``conversations.json``, or the export zip).

Undocumented by Anthropic; read as observed. ``parse`` takes the list of conversations
(or one conversation) and gives one UMF conversation per entry, keyed by its ``uuid``;
``iter_parse`` streams them from the file or from the zip (``conversations.json``, or its
shards ``conversations-000.json``... in a large account's export). How an
entry is read is in ``_parse`` and ``_parse_blocks``: messages form a tree through
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

from providers.formats import register_package
from providers.formats._archive.wiring import data_export
from providers.formats.base import Capabilities

from ._constants import FORMAT_ID
from ._detect import detect
from ._parse import parse_conversation
from ._render import render_conversation
from ._render_foreign import render_foreign

__all__ = ["ARCHIVE", "FORMAT", "FORMAT_ID", "detect", "parse", "render"]

ARCHIVE = data_export(FORMAT_ID, parse_conversation, render_conversation, render_foreign, ("uuid",))
parse, render = ARCHIVE.parse, ARCHIVE.render

FORMAT = register_package(
    __name__,
    label="Claude.ai data export",
    capabilities=Capabilities(
        roles=frozenset({"user", "assistant"}),
        blocks=frozenset({"text", "document", "tool_use", "tool_result", "thinking"}),
        tree=True,
        multi_conversation=True,
    ),
    provider="anthropic",
    **ARCHIVE.hooks(),
)

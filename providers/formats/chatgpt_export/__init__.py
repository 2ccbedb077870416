"""``chatgpt-export``: the ChatGPT data export (``conversations.json``, or the export zip).

Undocumented by OpenAI; read as observed. ``parse`` takes the list of conversations (or
one conversation) and gives one UMF conversation per entry, keyed by its
``conversation_id`` (else ``id``). ``iter_parse`` streams them from the file or from the
zip, whose conversations may be split over ``conversations-000.json``, ``-001``...;
images the zip holds (named after their ``file-service://`` / ``sediment://`` file id)
become base64 image blocks. Every branch of the ``mapping`` tree is kept, the thread to
``current_node`` last so that it is the main path (see ``_rules`` and ``_parse``); the
content types are read by ``_parse_content``.

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

from providers.formats import register_package
from providers.formats._archive.wiring import data_export
from providers.formats.base import Capabilities

from ._constants import FORMAT_ID
from ._detect import detect
from ._parse import parse_conversation
from ._render import render_conversation
from ._render_foreign import render_foreign

__all__ = ["ARCHIVE", "FORMAT", "FORMAT_ID", "detect", "parse", "render"]

ARCHIVE = data_export(
    FORMAT_ID, parse_conversation, render_conversation, render_foreign, ("conversation_id", "id")
)
parse, render = ARCHIVE.parse, ARCHIVE.render

FORMAT = register_package(
    __name__,
    label="ChatGPT data export",
    capabilities=Capabilities(
        roles=frozenset({"system", "user", "assistant", "tool"}),
        blocks=frozenset({"text", "image", "audio", "tool_use", "tool_result", "thinking"}),
        parameters=frozenset({"model"}),
        tree=True,
        multi_conversation=True,
        hidden_context=True,
    ),
    provider="openai",
    **ARCHIVE.hooks(),
)

"""``forge``: Forge's plain role/content messages (seed 002), tool calls written in the text.

Messages are ``{"role": "system" | "user" | "assistant" | "tool", "content": <text>}``. An
assistant's text may hold bracketed thinking lines and ``<tool>`` calls (pure XML with
CDATA, or the deprecated JSON form); a tool message is ``Tool: <name>`` followed by the
result (``Error: ...`` for a failure). ``_parse`` and ``_parse_text`` describe the reading; a
payload read here is written back byte for byte.

What does not travel into Forge, and the warning it gives:

==============================================  ============================================
developer messages                              system, ``system-message-transformed``
tool-call ids                                   dropped (results follow their call by tool
                                                name): ``id-rewritten`` (info), one per call
a result that does not name its tool, or names  ``tool``, ``parameter-defaulted``
it blank or over lines
tool results inside other messages              ``Tool:`` messages of their own, after an
                                                assistant's message, before any other;
                                                ``message-reordered`` (info) for each one
                                                that jumps over the message's text
tool messages that answer no call               user messages, ``content-type-unsupported``
thinking signatures / encrypted data            text kept, ``signature-stripped``
thinking with no text; thinking outside an      ``reasoning-dropped``
assistant message; ``reasoning`` fields
images, audio, documents (but text documents)   ``content-dropped``
refusals, text documents                        text, ``content-type-unsupported``
citations; a message ``name``                   ``content-dropped`` (the name as info)
tool definitions; tool choice; parameters       ``tool-unsupported``; ``parameter-unsupported``
other branches of a tree                        ``content-dropped`` per message
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons, usage and metadata                     messages
other formats' fields                           ``field-unknown`` (info)
==============================================  ============================================

Tool arguments are written as XML when they read back as the same JSON (string values,
objects, lists of two or more); anything else (numbers, booleans, nulls) uses the JSON
form, which carries them exactly.
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats.base import Capabilities
from providers.formats.forge._constants import FORMAT_ID, ROLES
from providers.formats.forge._detect import detect
from providers.formats.forge._parse import parse
from providers.formats.forge._render import render

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="Forge messages",
    capabilities=Capabilities(
        roles=frozenset(ROLES),
        blocks=frozenset({"text", "tool_use", "tool_result", "thinking"}),
    ),
)

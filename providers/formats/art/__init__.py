"""``art``: the ART framework's ``ArtStandardMessage`` / ``ArtStandardPrompt`` (seed 004).

A message is ``{"role", "content": string | object | null, "name"?, "tool_call_id"?,
"tool_calls"?: [{"id", "type": "function", "function": {"name", "arguments": <JSON
string>}}]}`` with roles ``system``, ``user``, ``assistant``, ``tool_request`` and
``tool_result`` (and ``tool``, which ART's own schema accepts as a result). Payload shapes
and how messages map are described in ``_parse``.

What does not travel into ART, and the warning it gives:

==============================================  ============================================
developer messages                              system, ``system-message-transformed``
thinking blocks, ``reasoning``, details         ``reasoning-dropped``
images, audio, documents (but text documents)   ``content-dropped``
refusals, text documents                        text, ``content-type-unsupported``
citations                                       ``content-dropped``
tool calls outside assistant messages           ``content-dropped``
tool results inside other messages              their own ``tool_result`` messages, after
                                                an assistant's message, before any other;
                                                ``message-reordered`` (info) for each one
                                                that jumps over the message's content
tool result ``is_error``                        "Error: " text, ``capability-unsupported``
a tool message that answers no call             a user message, ``content-type-unsupported``
tool definitions; tool choice; parameters       ``tool-unsupported``; ``parameter-unsupported``
other branches of a tree                        ``content-dropped`` per message
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons, usage and metadata                     messages
other formats' fields                           ``field-unknown`` (info)
==============================================  ============================================

Text blocks of one message are joined with newlines (ART content is one string).
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats.art._constants import FORMAT_ID, ROLES
from providers.formats.art._detect import detect
from providers.formats.art._parse import parse
from providers.formats.art._render import render
from providers.formats.base import Capabilities

__all__ = ["FORMAT", "FORMAT_ID", "ROLES", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="ART ArtStandardMessage",
    capabilities=Capabilities(
        roles=frozenset({"system", "user", "assistant", "tool"}),
        blocks=frozenset({"text", "tool_use", "tool_result"}),
    ),
)

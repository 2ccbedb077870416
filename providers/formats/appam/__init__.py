"""``appam``: Appam's ``UnifiedMessage`` (seed 003), as serde writes it.

A message is ``{"role": "system" | "user" | "assistant", "content": [blocks], "id"?,
"timestamp"? (RFC 3339), "reasoning"?, "reasoning_details"?}``; blocks are tagged by
``type`` in snake_case (``text``, ``image``, ``document``, ``tool_use``, ``tool_result``,
``thinking``). It maps onto UMF nearly one to one: UMF's ``reasoning`` and
``reasoning_details`` exist for it. Payload shapes are described in ``_parse``.

Thinking signatures: Appam does not say which provider signed them, so a thinking block
read here names ``appam`` as its provider: its signature goes back into Appam documents
and nowhere else.

What does not travel into Appam, and the warning it gives:

==============================================  ============================================
developer messages                              system, ``system-message-transformed``
tool messages                                   a user message of ToolResult blocks (Appam's
                                                own rule; no warning), or a user message
                                                with ``content-type-unsupported`` when it
                                                answers no call
refusals                                        text, ``content-type-unsupported``
audio, images/documents by file id              ``content-dropped``
citations; a message ``name``; a document's     ``content-dropped`` (the last two as info)
file name beside its title
a missing media type                            a default, ``parameter-defaulted`` (info)
tool arguments that were not valid JSON         ``content-dropped`` (the raw string)
thinking signed by another provider             text kept, ``signature-stripped``
reasoning with no text (redacted, encrypted)    ``reasoning-dropped``
tool definitions; tool choice; parameters       ``tool-unsupported``; ``parameter-unsupported``
other branches of a tree                        ``content-dropped`` per message
message models, finish reasons, usage and       ``content-dropped`` (info), one for all
metadata (an exchange keeps its answer's)       messages
other formats' fields                           ``field-unknown`` (info)
==============================================  ============================================
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats.appam._constants import FORMAT_ID, ROLES
from providers.formats.appam._detect import detect
from providers.formats.appam._parse import parse
from providers.formats.appam._render import render
from providers.formats.base import Capabilities

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="Appam UnifiedMessage",
    capabilities=Capabilities(
        roles=frozenset(ROLES),
        blocks=frozenset({"text", "image", "document", "tool_use", "tool_result", "thinking"}),
        reasoning_signatures=True,
        usage=True,
    ),
)

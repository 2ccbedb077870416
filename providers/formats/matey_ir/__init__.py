"""``matey-ir``: ai.matey's Intermediate Representation (seed 001).

Requests (``IRChatRequest``), responses (``IRChatResponse``), stream chunk arrays
(``IRStreamChunk[]``), bare message arrays and logged exchanges: ``_payload`` lists the
shapes. The IR is camelCase (``toolChoice``, ``maxTokens``, ``stopSequences``,
``toolUseId``, ``mediaType``, ``finishReason``, ``promptTokens``...). Its metadata,
provenance and drift warnings become UMF metadata (``_metadata``); the IR's warnings are
history and stay in ``conversation.metadata.warnings``.

This module follows seed 001's types: content is text, image, tool_use and tool_result
(later ai.matey versions add audio, document and video blocks and ``responseFormat``; an
unknown request field is kept verbatim, an unknown block type is refused).

What does not travel into the IR, and the warning it gives:

==============================================  ============================================
developer messages                              system, ``system-message-transformed``
thinking blocks, ``reasoning``, details         ``reasoning-dropped``
audio, documents (but text documents), images   ``content-dropped``
by file id, non-text blocks in tool results
refusals, text documents                        text, ``content-type-unsupported``
a tool input that is not an object              wrapped as ``{"input": ...}``,
                                                ``content-type-unsupported``
tool arguments that were not valid JSON         ``content-dropped`` (the raw string)
citations; image detail                         ``content-dropped`` (detail as info)
parallel_tool_calls                             ``parameter-unsupported``
temperature, topP, penalties out of range       ``parameter-clamped``
maxTokens or topK below 1 (Cohere's ``k: 0``)   left out, ``parameter-normalized``
a forced tool choice naming no tool             ``required``, ``parameter-normalized``
no request id / timestamp; a tool without       defaults, ``parameter-defaulted`` (info)
description or schema; a base64 image without
media type; an answer without finish reason
provenance's served model                       ``content-dropped`` (info)
history warnings of categories the IR lacks     ``capability-unsupported`` with the category
                                                in details, ``parameter-normalized`` (info)
other branches of a tree                        ``content-dropped`` per message
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons and usage outside a response            messages
other formats' fields                           ``field-unknown`` (info)
==============================================  ============================================
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats.base import Capabilities
from providers.formats.matey_ir._constants import FORMAT_ID, ROLES
from providers.formats.matey_ir._detect import detect
from providers.formats.matey_ir._parse import parse
from providers.formats.matey_ir._render import render

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="ai.matey IR",
    capabilities=Capabilities(
        roles=frozenset(ROLES),
        blocks=frozenset({"text", "image", "tool_use", "tool_result"}),
        tools=True,
        tool_choice=True,
        parameters=frozenset(
            {"model", "temperature", "max_tokens", "top_p", "top_k", "stop", "seed"}
            | {"frequency_penalty", "presence_penalty", "user", "stream"}
        ),
        usage=True,
    ),
)

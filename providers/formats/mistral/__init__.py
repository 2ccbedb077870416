"""``mistral``: Mistral chat completions (``POST /v1/chat/completions``) requests, logged
exchanges and responses.

``parse`` reads one conversation from a request body, a bare ``messages`` list, a logged
exchange ``{"request": ..., "response": ...}`` or a bare ``chat.completion``, and records
which as the conversation hint ``$shape``. Fields UMF has no name for stay verbatim in
``extra["mistral"]`` of the value they belong to (``prefix``, ``safe_prompt``,
``prompt_mode``...); ``$`` keys there are layout hints. Chunks and tools UMF has no type for
(``reference`` chunks, ``document_library`` tools...) are kept verbatim with their positions
in the fields ``unmapped_chunks`` / ``unmapped_tools``. Thinking chunks become thinking
blocks of provider ``mistral``, with their signature.

``render`` writes a conversation read by this format back exactly as it was read. Any
other conversation becomes a request Mistral accepts, with one drift warning for each thing
it could not carry (plus those of :mod:`providers.formats._chat_completions`: system messages,
tool-result pairing, branches):

==================================================  ==========================================
tool call ids that are not ``[a-zA-Z0-9]{9}``       base-62 of their sha256, ``id-rewritten``
                                                    (info), results follow the call's new id
a user message right after a tool message           a bridge assistant message
                                                    (:data:`BRIDGE_TEXT`) before it,
                                                    ``message-reordered``
consecutive same-role messages                      one message, ``role-merged``
a final assistant message                           ``prefix: true``, ``parameter-defaulted``
                                                    (info)
media in system, assistant or tool content          a user message after the group,
                                                    ``message-reordered``
documents as base64 bytes (PDF...)                  ``content-dropped``: Mistral needs a
                                                    ``document_url``, and converting uploads
                                                    nothing
documents as text (or base64 text)                  a text chunk, ``content-type-unsupported``
images, documents or audio by another provider's    ``content-dropped``
file id; audio by URL
refusals                                            text, ``content-type-unsupported``
tool result ``is_error``                            "Error: " text, ``capability-unsupported``
thinking of other providers                         a thinking chunk without the signature,
                                                    ``signature-stripped`` when it was signed;
                                                    redacted or outside an assistant message
                                                    ``reasoning-dropped``
citations                                           ``content-dropped``
a forced tool choice that names no tool             ``any``, ``parameter-normalized``
tool_choice without tools, ``user``,                ``parameter-unsupported``
``parameters.custom``
an empty message                                    left out, ``content-dropped`` (info)
no model                                            :data:`DEFAULT_MODEL`,
                                                    ``parameter-defaulted``
a tool without parameters                           an empty object schema,
                                                    ``parameter-defaulted`` (info)
temperature, top_p, penalties out of range          ``parameter-clamped``
other formats' ``extra`` fields                     ``field-unknown`` (info)
message ids, timestamps, models, finish reasons,    ``content-dropped`` (info), one for all
usage and metadata                                  messages
==================================================  ==========================================
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats._chat_completions.parameters import SAMPLING, THREAD_ROLES
from providers.formats.base import Capabilities

from ._constants import BRIDGE_TEXT, DEFAULT_MODEL, FORMAT_ID
from ._detect import detect
from ._parse import parse
from ._render import render

__all__ = ["BRIDGE_TEXT", "DEFAULT_MODEL", "FORMAT", "FORMAT_ID", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="Mistral Chat",
    capabilities=Capabilities(
        roles=THREAD_ROLES,
        blocks=frozenset(
            {"text", "image", "document", "audio", "tool_use", "tool_result", "thinking"}
        ),
        tools=True,
        tool_choice=True,
        parameters=SAMPLING | {"parallel_tool_calls"},
        reasoning_signatures=True,
        usage=True,
    ),
    provider="mistral",
)

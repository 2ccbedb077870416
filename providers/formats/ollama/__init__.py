"""``ollama``: the Ollama ``/api/chat`` endpoint (non-streamed).

**Parse** accepts a request body, a bare message list, a logged exchange
``{"request", "response"}`` and a bare response, and records which as the conversation
hint ``$shape``. ``content`` strings become text blocks, ``thinking`` a thinking block
(plain text: Ollama has no signatures), ``images`` base64 image blocks with the media type
sniffed from the bytes, ``tool_calls`` tool-use blocks (arguments are objects) and tool
messages a tool-result block named by ``tool_name``. Calls without ids get deterministic
ones and results are paired by tool name and order (``id-synthesized`` warnings). The
response's ``done_reason`` and counts become finish reason and usage; every field UMF has
no name for stays in ``extra["ollama"]`` at its level, explicit nulls and empty lists too.

**Render** writes the shape that was read: a conversation read from this format comes back
exactly as it was. Any other conversation becomes a request Ollama accepts: ``model``
defaulted (:data:`DEFAULT_MODEL`), parameters moved into ``options``, tool results as
``tool`` messages with ``tool_name``, and a drift warning for each lossy step (see
``_render_blocks`` and ``_render_messages``): tool ids and tool_choice (Ollama has
neither), image URLs (sent as text: nothing is downloaded), documents, audio, citations,
signatures, redacted reasoning, error flags, author names; the messages' ids, timestamps,
models, finish reasons, usage and metadata (one info note).
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats._chat_completions.parameters import SAMPLING, THREAD_ROLES
from providers.formats.base import Capabilities

from ._constants import DEFAULT_MODEL, FORMAT_ID
from ._detect import detect
from ._parse import parse
from ._render import render

__all__ = ["DEFAULT_MODEL", "FORMAT", "FORMAT_ID", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="Ollama /api/chat",
    capabilities=Capabilities(
        roles=THREAD_ROLES,
        blocks=frozenset({"text", "image", "tool_use", "tool_result", "thinking"}),
        tools=True,
        parameters=SAMPLING,
        usage=True,
    ),
    provider="ollama",
)

"""``anthropic``: the Anthropic Messages API (``POST /v1/messages``).

**Parse** accepts a request body, a bare message list, a logged exchange
``{"request", "response"}`` and a bare response Message, and records which as the
conversation hint ``$shape``. The top-level ``system`` becomes a leading UMF system message;
tool results stay ``tool_result`` blocks of ``user`` messages (splitting them into tool
messages is for the renderers of formats that need it). Every field UMF has no name for is
kept in ``extra["anthropic"]`` at its level, and explicit nulls too. Block types UMF has no
name for (server tool blocks, ``search_result``...) are kept verbatim with their position in
the field ``unmapped_blocks`` of their message's extra: they come back in place here, and
other formats report them among this format's fields they cannot carry.

**Render** writes the shape that was read. A conversation read from this format comes back
exactly as it was (same JSON); one from any other format becomes a request the API accepts:
``model`` / ``max_tokens`` defaulted (:data:`DEFAULT_MODEL`, :data:`DEFAULT_MAX_TOKENS`),
system and developer messages in the top-level ``system``, tool messages and same-role runs
merged into alternating turns that start with the user, every call answered right after it,
tool ids fitted to ``^[a-zA-Z0-9_-]+$``, and a drift warning for each of these steps and for
everything left out (audio, foreign reasoning and signatures, citations, temperature/top_p/
top_k, penalties, seed, other formats' fields; the messages' ids, timestamps, models, finish
reasons, usage and metadata in one info note).
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats._content_blocks import block_capabilities
from providers.formats.anthropic._constants import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    FORMAT_ID,
)
from providers.formats.anthropic._detect import detect
from providers.formats.anthropic._parse import parse
from providers.formats.anthropic._render import render

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "FORMAT",
    "FORMAT_ID",
    "detect",
    "parse",
    "render",
]


FORMAT = register_package(
    __name__,
    label="Anthropic Messages",
    capabilities=block_capabilities(
        # temperature/top_p/top_k only in round trips of Anthropic payloads (API version).
        frozenset(
            {"model", "max_tokens", "temperature", "top_p", "top_k", "stop", "user", "stream"}
            | {"parallel_tool_calls"}
        ),
        audio=False,
    ),
    provider="anthropic",
)

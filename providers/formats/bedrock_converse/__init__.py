"""``bedrock-converse``: AWS Bedrock Converse (``POST /model/{modelId}/converse``).

**Parse** accepts a request (as boto3 takes it, with ``modelId``, or as the HTTP body,
without), a bare message list, a logged exchange ``{"request", "response"}`` and a bare
Converse response, and records which as the conversation hint ``$shape``. Content blocks are
tagged unions (``{"text": ...}``, ``{"toolUse": {...}}``); the top-level ``system`` becomes a
leading UMF system message; tool results stay ``tool_result`` blocks of ``user`` messages;
``reasoningContent`` becomes thinking blocks with ``provider="bedrock-converse"``. Every
member UMF has no name for (``guardrailConfig``, ``additionalModelRequestFields``,
``promptVariables``, ``requestMetadata``, ``metrics``...) is kept in
``extra["bedrock-converse"]`` at its level, and blocks UMF has no type for (``cachePoint``,
``video``, ``searchResult``...) are kept verbatim in place (hint ``$opaque``).

**Render** writes the shape that was read. A conversation read from this format comes back
exactly as it was (same JSON); one from any other format becomes a request Converse accepts:
``modelId`` defaulted (:data:`DEFAULT_MODEL`), system and developer messages in the top-level
``system``, tool messages and same-role runs merged into alternating turns that start with
the user, every call answered right after it, tool ids fitted to ``[a-zA-Z0-9_.:-]{1,64}``
and names to ``[a-zA-Z0-9_-]{1,64}``, ``toolConfig`` present whenever the history holds tool
blocks, media as base64 ``bytes`` (HTTP URLs cannot be fetched: sent as text naming them),
and a drift warning for each of these steps and for everything left out (foreign reasoning
and signatures, citations, ``tool_choice: none``, top_k, seed, penalties, other formats'
fields; the messages' ids, timestamps, models, finish reasons, usage and metadata in one info
note).
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats._content_blocks import block_capabilities
from providers.formats.bedrock_converse._constants import DEFAULT_MODEL, FORMAT_ID
from providers.formats.bedrock_converse._detect import detect
from providers.formats.bedrock_converse._parse import parse
from providers.formats.bedrock_converse._render import render

__all__ = ["DEFAULT_MODEL", "FORMAT", "FORMAT_ID", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="AWS Bedrock Converse",
    capabilities=block_capabilities(
        frozenset({"model", "max_tokens", "temperature", "top_p", "stop"}), audio=True
    ),
    provider="bedrock",
)

"""``openai-responses``: OpenAI Responses API requests, item lists, exchanges and responses.

``parse`` reads one conversation from a request body (``input`` as a string or an item
list, ``instructions`` as a leading system message marked ``$instructions``), a bare item
list, a logged exchange ``{"request": ..., "response": ...}`` or a bare ``response`` object,
and records which as the conversation hint ``$shape``. Fields UMF has no name for stay
verbatim in ``extra["openai-responses"]`` of the value they belong to; ``$`` keys there are
layout hints. How items map to messages is in ``_parse_items``; items and hosted tools UMF
has no name for stay verbatim with their positions (``unmapped_items``, ``unmapped_tools``).

``render`` writes a conversation read by this format back as exactly the payload it was
read from. Any other conversation becomes a request the API accepts, with one drift warning
for each thing it could not carry (see ``_render``). ``render_request`` always does the
latter, whatever the shape: it is what a client sends (an exchange's answer becomes the last
input items, reasoning included).
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats.base import Capabilities

from ._constants import DEFAULT_MODEL, FORMAT_ID
from ._detect import detect
from ._parse import parse
from ._render import render, render_request

__all__ = ["DEFAULT_MODEL", "FORMAT", "FORMAT_ID", "detect", "parse", "render", "render_request"]


FORMAT = register_package(
    __name__,
    label="OpenAI Responses",
    capabilities=Capabilities(
        roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
        blocks=frozenset(
            {"text", "refusal", "image", "document", "tool_use", "tool_result", "thinking"}
        ),
        tools=True,
        tool_choice=True,
        parameters=frozenset(
            {"model", "temperature", "max_tokens", "top_p", "user", "parallel_tool_calls"}
            | {"stream"}
        ),
        reasoning_signatures=True,
        usage=True,
    ),
    provider="openai",
)

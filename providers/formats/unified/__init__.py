"""``umf``: the Unified Message Format itself, as JSON (this package is named ``unified``
so that it is not confused with :mod:`providers.umf`, the UMF models).

Accepts a conversation object (``messages``, ``tools``, ``tool_choice``, ``parameters``,
``metadata``) or a bare list of messages in the shape of seed 000's InternalMessage
(``content`` a string or a list of blocks, tools in OpenAI's ``{"type": "function"}`` shape).
Output is the canonical dump (defaults omitted) plus whatever the input spelled out: keys
given with their default value at any depth, integers in float fields, string content,
OpenAI-shaped tools and timestamp strings come back as they came in. A value lax validation
would read as another type (``"5"`` or ``false`` as an integer) is refused naming it.
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats.base import Capabilities
from providers.formats.unified._constants import FORMAT_ID
from providers.formats.unified._detect import detect
from providers.formats.unified._parse import parse
from providers.formats.unified._render import render, render_stream
from providers.umf import BLOCK_TYPES

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render", "render_stream"]


FORMAT = register_package(
    __name__,
    label="UMF (Unified Message Format) JSON",
    capabilities=Capabilities(
        roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
        blocks=frozenset(BLOCK_TYPES),
        tools=True,
        tool_choice=True,
        parameters=frozenset(
            {"model", "temperature", "max_tokens", "top_p", "top_k", "stop", "seed"}
            | {"frequency_penalty", "presence_penalty", "user", "parallel_tool_calls"}
        ),
        reasoning_signatures=True,
        usage=True,
        tree=True,
        hidden_context=True,
    ),
    render_stream=render_stream,
)

"""The content-block family: ``anthropic``, ``bedrock-converse`` and ``gemini`` take a
conversation as alternating user and assistant (model) turns of typed content blocks, with
tool calls answered by results at the start of the next user turn. What they share by design
lives here, with each provider's words as parameters (a :class:`~.drafts.Dialect`):

* :mod:`.shape`: the one thread a request holds, and the payload in the shape it was read in;
* :mod:`.drafts`: UMF messages as draft turns, each block with its UMF path;
* :mod:`.rules`: the structural rules applied to drafts converted from another format;
* :mod:`.render` (the payload in its shape, the top-level system prompt, a response's stop
  reason and usage), :mod:`.blocks` (block lists, kept blocks, tool-result content,
  media), :mod:`.tools` and :mod:`.parse` (shapes, usage, stop sequences): the
  anthropic and bedrock-converse renderers and parsers, once;
* :func:`block_capabilities`, here: what the three formats all carry (system, user and
  assistant turns, typed blocks, tools and a tool choice, signed reasoning and usage), each
  format naming its parameters.
"""

from __future__ import annotations

from providers.formats.base import Capabilities

_BLOCKS = frozenset({"text", "image", "document", "tool_use", "tool_result", "thinking"})


def block_capabilities(parameters: frozenset[str], *, audio: bool) -> Capabilities:
    """The family's capabilities with the format's ``parameters`` (and audio blocks if it
    takes them)."""
    return Capabilities(
        roles=frozenset({"system", "user", "assistant"}),
        blocks=_BLOCKS | {"audio"} if audio else _BLOCKS,
        tools=True,
        tool_choice=True,
        parameters=parameters,
        reasoning_signatures=True,
        usage=True,
    )

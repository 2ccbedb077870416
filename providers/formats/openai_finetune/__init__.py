"""``openai-finetune``: OpenAI fine-tuning JSON Lines, one conversation a line.

A text format: the payload is the JSONL string. Each line is a supervised example
``{"messages", "tools"?, "parallel_tool_calls"?}`` (assistant messages may carry
``weight``) or a preference example ``{"input": {...}, "preferred_output": [...],
"non_preferred_output": [...]}``; ``parse`` gives one conversation per line, read by the
``openai-chat`` module (the line is a Chat Completions request without a model) with its
fields moved to ``extra["openai-finetune"]``. A preference example's ``preferred_output``
messages follow the input's (hint ``$output``); its other fields (``non_preferred_output``)
stay in the conversation's ``preference`` field (so an input with a field of that name is
refused: the two would take each other's place). Each conversation keeps its line verbatim
(hint ``$line``, and ``$line_end``): rendering it back gives the same bytes whenever the
JSON is unchanged.

A conversation from another format becomes one supervised line, written by
:func:`providers.formats.openai_chat.render_request` (so every lossy step of a Chat
Completions request applies, with its warning) and then fitted to what a line holds:

==============================================  ==============================================
sampling parameters, model, stop, seed, user    ``parameter-unsupported`` (a line has none;
                                                no model is filled in)
tool_choice                                     ``parameter-unsupported``
audio blocks; documents other than plain text   ``content-dropped`` (fine-tuning takes neither)
custom (free-text) tools                        ``tool-unsupported`` (function tools only)
request fields a line does not have             ``parameter-unsupported``
==============================================  ==============================================

Per-message ids, timestamps, models, finish reasons, usage and metadata have no place in a
line: as in the ``openai-chat`` module, one info note (``content-dropped``) names them.
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats.base import Capabilities

from ._constants import FORMAT_ID
from ._detect import detect
from ._parse import iter_parse, parse
from ._render import render, render_many

__all__ = ["FORMAT", "FORMAT_ID", "detect", "iter_parse", "parse", "render", "render_many"]


FORMAT = register_package(
    __name__,
    label="OpenAI fine-tuning JSONL",
    capabilities=Capabilities(
        roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
        blocks=frozenset({"text", "refusal", "image", "tool_use", "tool_result"}),
        tools=True,
        parameters=frozenset({"parallel_tool_calls"}),
        multi_conversation=True,
    ),
    kind="text",
    provider="openai",
    render_many=render_many,
    iter_parse=iter_parse,
)

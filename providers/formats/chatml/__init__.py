"""``chatml``: ChatML text, ``<|im_start|>role\\ncontent<|im_end|>\\n`` turns.

The payload is the text itself (a JSON string in the API). **Parse** reads every turn
into a message and keeps every character: headers (``role`` or ``role name=<author>``),
separators, a leading-whitespace prefix, a final open turn (the generation prompt, or a
prefilled answer) and the newlines around the template conventions it reads inside
content: ``<think>`` reasoning and ``<tool_call>`` JSON in assistant turns,
``<tool_response>`` results in user and tool turns, and the Qwen ``# Tools`` section of the
first system turn as the conversation's tools. ChatML has no ids, so calls and results get
deterministic ones, paired by order (``id-synthesized``).

**Render** gives back the exact text this format read. Any other conversation is written
as the Qwen2.5/Qwen3 templates write it, with a drift warning for each thing text cannot
carry (see ``_render`` and ``_render_content``).
"""

from __future__ import annotations

from pydantic import ValidationError

from providers.formats import register
from providers.formats.base import Capabilities, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from ._parse import parse_text
from ._render import render_text
from ._shared import FORMAT_ID, START

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render"]


def parse(payload: JSON) -> list[ParseResult]:
    """Read a ChatML text as one conversation; :class:`FormatError` naming the turn
    (``messages[3].role``) for text that is not ChatML."""
    try:
        conversation, drift = parse_text(payload)
    except ValidationError as error:  # a value the readers let through that UMF refuses
        first = error.errors()[0]
        raise FormatError(first["msg"], field=".".join(str(p) for p in first["loc"])) from None
    return [ParseResult(conversation, drift.warnings)]


def render(conversation: Conversation) -> Rendered:
    """Write a conversation as ChatML text (see the module docstring)."""
    return render_text(conversation)


def detect(payload: JSON) -> int:
    """2 for a string whose first turn opens with ``<|im_start|>`` (after whitespace): no
    other format is text that starts so; 0 for anything else."""
    return 2 if isinstance(payload, str) and payload.lstrip().startswith(START) else 0


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="ChatML text",
        capabilities=Capabilities(
            roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
            blocks=frozenset({"text", "tool_use", "tool_result", "thinking"}),
            tools=True,
            tool_choice=False,
            parameters=frozenset(),
            reasoning_signatures=False,
            usage=False,
        ),
        parse=parse,
        render=render,
        detect=detect,
        kind="text",
    )
)

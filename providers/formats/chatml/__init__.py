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

from providers.formats import register_package
from providers.formats.base import Capabilities
from providers.formats.chatml._constants import FORMAT_ID
from providers.formats.chatml._detect import detect
from providers.formats.chatml._parse import parse
from providers.formats.chatml._render import render

__all__ = ["FORMAT", "FORMAT_ID", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="ChatML text",
    capabilities=Capabilities(
        roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
        blocks=frozenset({"text", "tool_use", "tool_result", "thinking"}),
        tools=True,
    ),
    kind="text",
)

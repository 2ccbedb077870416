"""Tokens, roles and template strings of the ``chatml`` format, in one place so tests and
docs can cite them."""

from __future__ import annotations

from typing import Final

from providers.formats._kit.extra import Namespace
from providers.umf import Role

FORMAT_ID: Final = "chatml"
LABEL: Final = "ChatML"
NS: Final = Namespace(FORMAT_ID)
START: Final = "<|im_start|>"
END: Final = "<|im_end|>"

ROLES: Final[dict[str, Role]] = {
    "system": "system",
    "developer": "developer",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
}

# The tags each role's content is read for (the Qwen2.5/Qwen3 and Hermes conventions);
# anywhere else they are plain text.
TAGS: Final[dict[str, tuple[str, ...]]] = {
    "assistant": ("think", "tool_call"),
    "user": ("tool_response",),
    "tool": ("tool_response",),
}

# The tools section the Qwen2.5/Qwen3 templates append to the system turn, around one
# JSON tool definition per line.
TOOLS_HEAD: Final = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
TOOLS_TAIL: Final = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)
# What may follow the role on a header line (OpenAI's original ChatML description).
NAME_ATTRIBUTE: Final = "name="

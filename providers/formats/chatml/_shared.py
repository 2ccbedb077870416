"""Tokens, template strings, hints and the render context the ``chatml`` modules share."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from providers.formats._common import hint, report_foreign_fields
from providers.formats.base import Drift
from providers.umf import Extra, Role

FORMAT_ID: Final = "chatml"
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


def get_hint(extra: Extra, key: str, default: Any = None) -> Any:
    """A ``$key`` layout hint this format left on a value."""
    return hint(extra, FORMAT_ID, key, default)


def template_json(value: Any) -> str:
    """JSON as the chat templates write it (Jinja ``tojson`` in transformers is
    ``json.dumps`` with its default ``", "`` / ``": "`` separators and no ASCII escaping);
    orjson cannot produce this spacing, so the standard library writes it."""
    return json.dumps(value, ensure_ascii=False)


def read_json(text: str) -> tuple[Any, bool]:
    """``(value, ok)`` for JSON text (``(None, False)`` when it is not JSON, including
    the ``NaN`` / ``Infinity`` that Python would otherwise accept)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant), True
    except (ValueError, RecursionError):
        return None, False


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def split_padding(inner: str) -> tuple[str, str, str]:
    """``(lead, middle, trail)`` of a tag's inner text: the templates write one newline
    on each side (``<think>\\n...\\n</think>``)."""
    lead = "\n" if inner.startswith("\n") else ""
    rest = inner[len(lead) :]
    trail = "\n" if rest.endswith("\n") else ""
    return lead, rest[: len(rest) - len(trail)], trail


def canonical_gap(previous: str | None) -> str:
    """The newlines the templates write before a content element that follows one of
    kind ``previous`` (None: the element opens the content)."""
    if previous is None:
        return ""
    return "\n\n" if previous == "think" else "\n"


def escape_delimiters(text: str) -> str:
    """``text`` with the turn delimiters made inert (a zero-width space after ``<``), so
    that content cannot open or close a turn."""
    return text.replace(START, "<\u200b|im_start|>").replace(END, "<\u200b|im_end|>")


@dataclass
class Context:
    """What one render carries along: where warnings go, and whether to write the text
    this format read (``faithful``: hints are trusted and nothing is converted)."""

    drift: Drift
    faithful: bool


def warn_foreign_extra(extra: Extra, path: str, drift: Drift) -> None:
    """One ``field-unknown`` note per other format's fields on a value: text has no room
    for them. Empty fields are not worth one."""
    report_foreign_fields(extra, path, drift, FORMAT_ID, "ChatML", tail=" and are not written")

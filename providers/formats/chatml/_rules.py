"""What the Qwen2.5/Qwen3 (and Hermes) chat templates write, which a conversation converted
from another format follows: turns ``<|im_start|>{header}\n{content}<|im_end|>\n``, the
header a role and an optional ``name=<author>``, content elements separated by the newlines
the templates put between them, JSON in their spacing, and no turn delimiter inside
content."""

from __future__ import annotations

import json
from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_foreign_fields
from providers.formats.chatml._constants import END, FORMAT_ID, LABEL, NAME_ATTRIBUTE, START
from providers.umf import Extra


def template_json(value: Any) -> str:
    """JSON as the chat templates write it (Jinja ``tojson`` in transformers is
    ``json.dumps`` with its default ``", "`` / ``": "`` separators and no ASCII escaping);
    orjson cannot produce this spacing, so the standard library writes it."""
    return json.dumps(value, ensure_ascii=False)


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


def header_text(role: str, name: str | None) -> str:
    """The header for ``role`` and an optional author name."""
    return f"{role} {NAME_ATTRIBUTE}{name}" if name else role


def valid_name(name: str) -> bool:
    """Whether ``name`` fits on a header line and reads back as itself."""
    return bool(name) and not any(mark in name for mark in ("\n", "\r", START, END))


def turn_text(header: str, content: str, end: str | None, has_newline: bool = True) -> str:
    """One turn (``end`` None: left open, as a generation prompt or a prefill)."""
    newline = "\n" if has_newline else ""
    opened = f"{START}{header}{newline}{content}"
    return opened if end is None else f"{opened}{END}{end}"


def warn_foreign_extra(extra: Extra, path: str, ctx: RenderContext) -> None:
    """One ``field-unknown`` note per other format's fields on a value: text has no room
    for them. Empty fields are not worth one."""
    report_foreign_fields(extra, path, ctx.drift, FORMAT_ID, LABEL, tail=" and are not written")

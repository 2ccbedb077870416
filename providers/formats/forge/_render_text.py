"""UMF blocks -> Forge message text: ``<tool>`` calls (pure XML with CDATA when it reads
back as the same call, else the deprecated JSON form), bracketed thinking lines and
``Tool: <name>`` results (see :mod:`._parse_text` for the reading)."""

from __future__ import annotations

import json
import re
from typing import Any

from providers.formats.forge._constants import ERROR_PREFIX, TOOL_CLOSE, TOOL_OPEN, TOOL_PREFIX
from providers.formats.forge._parse_text import read_call
from providers.formats.forge._parse_xml import is_tag
from providers.umf import ToolUseBlock

_SPECIAL = re.compile(r"[<>&\n\r\t]|^\s|\s$")


def write_call(block: ToolUseBlock, fields: dict[str, Any], form: str | None) -> str:
    """A ``<tool>`` block: pure XML when it reads back as the same call, else the
    deprecated JSON form (which carries any JSON exactly)."""
    if form != "json":
        xml = _xml_call(block.name, block.input, fields)
        if xml is not None:
            return xml
    body = {**fields, "tool_name": block.name, "arguments": block.input}
    if "server_name" in fields:
        body = {"server_name": fields["server_name"], **body}
    return f"{TOOL_OPEN}\n{json.dumps(body, indent=2, ensure_ascii=False)}\n{TOOL_CLOSE}"


def _xml_call(name: str, arguments: Any, fields: dict[str, Any]) -> str | None:
    if not isinstance(arguments, dict) or not all(is_tag(key) for key in arguments):
        return None
    if not all(is_tag(key) and isinstance(value, str) for key, value in fields.items()):
        return None
    lines = [line for key, value in fields.items() for line in render_value(key, value, "")]
    lines.append(f"<tool_name>{escape_text(name)}</tool_name>")
    lines += render_value("arguments", arguments, "")
    text = "\n".join([TOOL_OPEN, *lines, TOOL_CLOSE])
    call = read_call(text[len(TOOL_OPEN) : -len(TOOL_CLOSE)])
    exact = call is not None and (call.name, call.input, call.fields) == (name, arguments, fields)
    return text if exact else None


def write_thinking(text: str) -> str:
    """Thinking as bracketed lines, one per line of the text."""
    return "\n".join(f"[{line}]" for line in text.split("\n"))


def write_result(name: str, content: str, is_error: bool) -> str:
    """A tool message's text: ``Tool: <name>`` and the result on the next line."""
    return f"{TOOL_PREFIX}{name}\n{ERROR_PREFIX if is_error else ''}{content}"


def render_value(tag: str, value: Any, indent: str) -> list[str]:
    """The lines of ``<tag>value</tag>`` (nested objects indented by two spaces)."""
    if isinstance(value, dict):
        inner = [
            line for key, item in value.items() for line in render_value(key, item, indent + "  ")
        ]
        return [f"{indent}<{tag}>", *inner, f"{indent}</{tag}>"]
    if isinstance(value, list):
        return [line for item in value for line in render_value(tag, item, indent)]
    return [f"{indent}<{tag}>{escape_text(str(value))}</{tag}>"]


def escape_text(value: str) -> str:
    """Text as Forge writes it: CDATA when it holds special characters or edge spaces."""
    if not _SPECIAL.search(value):
        return value
    return "<![CDATA[" + value.replace("]]>", "]]]]><![CDATA[>") + "]]>"

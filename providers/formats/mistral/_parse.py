"""Reading whole payloads: a request body, a bare message list, a logged exchange and a
bare ``chat.completion`` response.

The request's fields UMF has no name for (``safe_prompt``, ``prompt_mode``,
``response_format``, ``n``, ``reasoning_effort``...) stay verbatim in the conversation's
``extra``; tools of types other than ``function`` in its ``unmapped_tools`` field, with
their positions. A response's first choice becomes an assistant message with the
response ``id`` and ``model``, the normalised ``finish_reason`` (raw in
``provider_finish_reason``) and ``usage`` (raw in ``usage.raw``); hints keep the rest:
``$response`` (``object``, ``created``...), ``$choice`` (``index``...), ``$other_choices``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from providers.formats._chat_completions.blocks import ParseState, read_tool
from providers.formats._chat_completions.completion import Completion, read_completion
from providers.formats._chat_completions.shape import (
    Readers,
    RequestReaders,
    has_field,
    read_list,
    read_request,
    read_shape,
)
from providers.formats._kit.fields import (
    require_list,
    require_mapping,
    require_str,
    split,
    umf_checked,
)
from providers.formats._kit.paths import at, is_int, item
from providers.formats.base import FormatError, ParseResult
from providers.umf import JSON, Tool, ToolChoice, Usage

from ._constants import FINISH_REASONS, NS, PARAMETERS, UNMAPPED_TOOLS, WIRE_FINISH_REASONS
from ._parse_messages import parse_message

_MODES = {"auto": "auto", "none": "none", "any": "required", "required": "required"}


def parse(payload: JSON) -> list[ParseResult]:
    """Read one Mistral payload (request, message list, exchange or response) as one
    conversation. Raises :class:`FormatError` naming the field for anything that is not."""
    with umf_checked():
        return [ParseResult(read_shape(payload, _READERS, ParseState()))]


def _parse_tools(raw: JSON, path: str) -> tuple[list[Tool], dict[str, Any]]:
    tools, unmapped = [], []
    for index, entry in enumerate(require_list(raw, path)):
        tool = require_mapping(entry, item(path, index))
        if tool.get("type", "function") == "function":
            tools.append(read_tool(tool, item(path, index), NS))
        else:
            require_str(tool.get("type"), at(item(path, index), "type"))
            unmapped.append({"at": index, "tool": tool})
    return tools, {UNMAPPED_TOOLS: unmapped} if unmapped else {}


def _parse_tool_choice(raw: JSON, path: str) -> ToolChoice:
    if isinstance(raw, str):
        if raw not in _MODES:
            raise FormatError("tool_choice must be auto, none, any or required", field=path)
        value = "required" if raw == "required" else None
        return ToolChoice(type=_MODES[raw], extra=NS.extra({}, value=value))  # type: ignore[arg-type]
    choice = require_mapping(raw, path)
    if choice.get("type", "function") != "function":
        raise FormatError("tool_choice type must be function", field=at(path, "type"))
    function = require_mapping(choice.get("function"), at(path, "function"))
    name = require_str(function.get("name"), at(path, "function.name"))
    _, inner = split(function, (), handled=("name",), path=at(path, "function"))
    _, outer = split(choice, (), handled=("type", "function"), path=path)
    type_hint = "absent" if "type" not in choice else None
    return ToolChoice(
        type="tool", name=name, extra=NS.extra(outer, inner=inner or None, type=type_hint)
    )


def parse_usage(raw: JSON, path: str) -> Usage:
    """``usage`` as counted (Mistral gives no breakdown beyond cached prompt tokens, when
    it gives those); counts of the wrong type are left out (``raw`` keeps them)."""
    usage = require_mapping(raw, path)
    details = usage.get("prompt_tokens_details")
    cached = _count(details, "cached_tokens") if isinstance(details, dict) else None
    return Usage(
        prompt_tokens=_count(usage, "prompt_tokens"),
        completion_tokens=_count(usage, "completion_tokens"),
        total_tokens=_count(usage, "total_tokens"),
        cached_tokens=cached if cached is not None else _count(usage, "num_cached_tokens"),
        raw=dict(usage),
    )


def _count(source: dict[str, Any], key: str) -> int | None:
    value = source.get(key)
    return value if isinstance(value, int) and is_int(value) and abs(value) < 2**63 else None


def _usage(usage: Usage) -> dict[str, Any]:
    if usage.raw is not None:
        return usage.raw
    counts = {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.total_tokens,
    }
    return {key: value for key, value in counts.items() if value is not None}


COMPLETION = Completion(
    NS, FINISH_REASONS, WIRE_FINISH_REASONS, parse_usage, _usage, role_optional=True
)


_MESSAGES = partial(read_list, read_one=parse_message)
_REQUEST = RequestReaders(
    NS, PARAMETERS, _MESSAGES, _parse_tools, _parse_tool_choice, reserved=(UNMAPPED_TOOLS,)
)
_READERS = Readers(
    NS,
    _MESSAGES,
    partial(read_request, readers=_REQUEST),
    partial(read_completion, api=COMPLETION, read_message=parse_message),
    has_field("choices"),
    refusal="not a Mistral chat payload: expected messages, choices, or a request and a response",
)

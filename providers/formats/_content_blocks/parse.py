"""What the content-block parsers share: tool results named after the call they answer,
and usage whose input count leaves out the cache (UMF's counts include it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.formats._content_blocks.shape import parse_in_shape
from providers.formats._kit.fields import Fields, umf_checked
from providers.formats.base import FormatError, ParseResult
from providers.umf import JSON, Message, ToolResultBlock, ToolUseBlock, Usage


def parse_id_paired(
    payload: JSON,
    format_id: str,
    parse_message: Callable[[JSON, str], Message],
    **shapes: Any,
) -> list[ParseResult]:
    """A payload of any shape :func:`~.shape.parse_in_shape` reads (``shapes``: its request,
    response and tests), a bare list read by ``parse_message``, as one conversation whose
    tool results are named after their calls (these APIs pair them by id)."""
    with umf_checked():
        conversation = parse_in_shape(
            payload,
            format_id,
            message_list=lambda raw: [parse_message(m, f"[{i}]") for i, m in enumerate(raw)],
            **shapes,
        )
        name_tool_results(conversation.messages)
    return [ParseResult(conversation)]


def name_tool_results(messages: list[Message]) -> None:
    """Give each tool result the name of the call it answers (Gemini and Ollama pair results
    by name, so other formats need it; these APIs pair by id)."""
    names: dict[str, str] = {}
    for message in messages:
        for block in message.content:
            if isinstance(block, ToolUseBlock):
                names[block.id] = block.name
            elif isinstance(block, ToolResultBlock) and block.name is None:
                block.name = names.get(block.tool_use_id)


# An API's usage members in its order, each with the UMF count it carries.
UsageNames = tuple[tuple[str, str], ...]


def cached_usage(
    raw: dict[str, Any], counts: Fields, names: UsageNames, reasoning: int | None = None
) -> Usage:
    """Usage in UMF's (OpenAI's) meaning from an API whose input count leaves out cache
    reads and writes: UMF ``prompt_tokens`` includes them, and the total is their sum with
    the output unless the API gave one. ``raw`` keeps the object as sent."""
    read = {umf: counts.integer(wire) for wire, umf in names}
    fresh, output = read.get("prompt_tokens"), read.get("completion_tokens")
    cached, written = read.get("cached_tokens"), read.get("cache_write_tokens")
    prompt = None if fresh is None else fresh + (cached or 0) + (written or 0)
    total = read.get("total_tokens")
    if total is None and prompt is not None and output is not None:
        total = prompt + output
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=output,
        total_tokens=total,
        cached_tokens=cached,
        cache_write_tokens=written,
        reasoning_tokens=reasoning,
        raw=dict(raw),
    )


def cache_excluded_usage(usage: Usage, names: UsageNames) -> dict[str, Any]:
    """UMF usage in the meaning :func:`cached_usage` reads: the input count without the
    cache reads and writes."""
    body: dict[str, Any] = {}
    for wire, umf in names:
        value = getattr(usage, umf)
        if value is not None and umf == "prompt_tokens":
            value -= (usage.cached_tokens or 0) + (usage.cache_write_tokens or 0)
        if value is not None:
            body[wire] = value
    return body


def stop_sequences(fields: Fields, key: str) -> list[Any] | None:
    """The stop sequences under ``key`` (None when absent): strings only."""
    stop = fields.array(key)
    for index, sequence in enumerate(stop or []):
        if not isinstance(sequence, str):
            raise FormatError("stop sequences must be strings", field=f"{fields.at(key)}[{index}]")
    return stop

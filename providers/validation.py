"""Checks a UMF conversation must pass before the archive stores it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import orjson

from providers._umf_base import UMFModel, UMFValidationError
from providers.formats.base import FormatError
from providers.umf import Conversation, Message, ToolResultBlock, ToolUseBlock


def check_conversation(
    conversation: Conversation,
    *,
    max_messages: int | None = None,
    max_blocks: int | None = None,
    validated: bool = False,
) -> None:
    """Raise :class:`FormatError` (with the field) if the conversation is inconsistent:
    a value that is not what UMF says it is, a tool result that answers no earlier tool
    call, or a parent that is not an earlier message. A conversation without a message has
    nothing to archive, and one with a NUL character in any text cannot be stored
    (PostgreSQL text and jsonb refuse it). ``max_messages`` and ``max_blocks`` (content
    blocks in all) bound what one conversation may hold. ``validated``: its reader validated
    every value already (``ParseResult.validated``), so :func:`check_values` is not run
    again; the rest still is."""
    if not conversation.messages:
        raise FormatError("the conversation holds no message", field="messages")
    if max_messages is not None and len(conversation.messages) > max_messages:
        raise FormatError(
            f"the conversation holds {len(conversation.messages):,} messages; the archive "
            f"keeps at most {max_messages:,} per conversation (UMF_MAX_MESSAGES)",
            field="messages",
        )
    if max_blocks is not None:
        blocks = sum(len(message.content) for message in conversation.messages)
        if blocks > max_blocks:
            raise FormatError(
                f"the conversation holds {blocks:,} content blocks; the archive keeps at "
                f"most {max_blocks:,} per conversation (UMF_MAX_BLOCKS)",
                field="messages",
            )
    if not validated:
        check_values(conversation)
    _check_nul_characters(conversation)
    calls: set[str] = set()
    seen_ids: set[str] = set()
    for position, message in enumerate(conversation.messages):
        path = f"messages[{position}]"
        if message.parent_id is not None and message.parent_id not in seen_ids:
            raise FormatError(
                f"parent {message.parent_id!r} is not an earlier message of the conversation",
                field=f"{path}.parent_id",
            )
        for index, block in enumerate(message.content):
            if isinstance(block, ToolUseBlock):
                calls.add(block.id)
            elif isinstance(block, ToolResultBlock) and block.tool_use_id not in calls:
                raise FormatError(
                    f"tool result for {block.tool_use_id!r} answers no earlier tool call",
                    field=f"{path}.content[{index}].tool_use_id",
                )
        if message.role == "tool" and message.tool_call_id and message.tool_call_id not in calls:
            raise FormatError(
                f"tool message for {message.tool_call_id!r} answers no earlier tool call",
                field=f"{path}.tool_call_id",
            )
        if message.id is not None:
            seen_ids.add(message.id)


def check_values(conversation: Conversation) -> None:
    """Raise :class:`FormatError` (with the field) unless every value of the conversation
    is of its UMF type. The format readers build UMF without validating it again (see
    :class:`providers.umf.UMFModel`); this is the one check of what they built, at the edge
    where a conversation is stored, so that a reader's missed check is a 422, not a row."""
    # A message at a time, then the rest: validating a dump of the whole conversation held
    # it three times over at once (the models, the dump, the copy), 40x a body of short
    # messages (issue 21). The first error is the same, in the same order.
    for position, message in enumerate(conversation.messages):
        _check_model(Message, message.model_dump(exclude_defaults=True), f"messages[{position}]")
    rest = conversation.model_dump(exclude_defaults=True, exclude={"messages"})
    _check_model(Conversation, rest, "")


def _check_model(model: type[UMFModel], dump: dict[str, Any], at: str) -> None:
    try:
        model.model_validate(dump)
    except UMFValidationError as error:
        raise FormatError(error.message, field=error.under(at) or None) from None


def _check_nul_characters(conversation: Conversation) -> None:
    # The JSON serialiser (msgspec's, in C) writes NUL as the escape \u0000: without
    # it in the text, no string or key holds one, and no walk is needed. Defaults hold
    # none, so the UMF JSON (defaults left out) has every string that could.
    if "\\u0000" not in conversation.model_dump_json(exclude_defaults=True):
        return
    for path, text in json_strings(conversation.model_dump(mode="json", exclude_defaults=True)):
        if "\x00" in text:
            raise FormatError(
                "a NUL character (\\u0000) in the text: the archive cannot store one",
                field=path or None,
            )


# A JSON escape of NUL: a backslash that is not itself escaped (an even number of
# backslashes before it), then u0000.
_NUL_ESCAPE = re.compile(rb"(?<!\\)((?:\\\\)*)\\u0000")


def replace_nul(value: Any) -> tuple[Any, list[str]]:
    """``value`` (JSON) with every NUL character of its strings and keys replaced by
    U+FFFD, and the paths of the strings that held one; ``value`` itself, and no path, when
    none did. For what the archive must keep although it has one (a provider's answer):
    PostgreSQL text and jsonb cannot hold the character."""
    encoded = orjson.dumps(value)
    if b"\\u0000" not in encoded:
        return value, []
    # A key may hold one too: the paths are stored, so they get the same replacement.
    paths = [path.replace("\x00", "\ufffd") for path, text in json_strings(value) if "\x00" in text]
    if not paths:  # only the text "\u0000" (backslash, u, zeros)
        return value, []
    return orjson.loads(_NUL_ESCAPE.sub(rb"\1\\ufffd", encoded)), paths


def json_strings(value: Any) -> Iterator[tuple[str, str]]:
    """Every key and string of a JSON value, with its path (without recursion: a file's
    ``extra`` may nest deeper than Python's stack)."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, path = stack.pop()
        if isinstance(node, str):
            yield path, node
        elif isinstance(node, dict):
            for key, child in reversed(node.items()):
                at = f"{path}.{key}" if path else key
                yield at, key
                stack.append((child, at))
        elif isinstance(node, list):
            stack.extend(
                (child, f"{path}[{index}]") for index, child in reversed(list(enumerate(node)))
            )

"""What the archive formats say alike when they write a conversation read from another
format: the request fields a file of conversations has no place for, the facts and fields of
each message, reasoning written as plain text, a tool result's error flag said in its text,
citations, blocks written as text, the one thread a flat file holds, and ids made up the
same way every time. Each format gives its own words (its ``label`` in field notes, what
holds the conversation in the others)."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from providers.formats._kit.drift import (
    error_said_in_content,
    report_block_as_text,
    report_block_dropped,
    report_citations_dropped,
    report_foreign_fields,
    report_message_name,
    report_parameters_dropped,
    report_tool_choice_dropped,
)
from providers.formats._kit.ids import report_rewritten
from providers.formats._kit.wire import report_signature_stripped
from providers.formats.base import Drift
from providers.umf import (
    Block,
    Conversation,
    DocumentBlock,
    Message,
    RefusalBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)


@dataclass(frozen=True)
class Words:
    """How one archive format names itself in warnings: ``format_id`` and ``label`` (the
    provider, for other formats' fields: "ChatGPT"), ``holder`` what holds a conversation
    and has no place for a request's fields ("a ChatGPT export has"), ``message`` one
    message ("a ChatGPT export message")."""

    format_id: str
    label: str
    holder: str
    message: str

    def foreign(self, extra: dict[str, dict[str, Any]], path: str, drift: Drift) -> None:
        """A ``field-unknown`` (info) note for each other format's fields on a value."""
        report_foreign_fields(extra, path, drift, self.format_id, self.label, with_empty=True)

    def report_message(self, message: Message, path: str, drift: Drift) -> None:
        """Other formats' fields on a message, and its author name (not a tool's)."""
        self.foreign(message.extra, path, drift)
        report_message_name(message, path, drift, f"{self.message} has no name")


def report_request(
    conversation: Conversation,
    drift: Drift,
    words: Words,
    *,
    parameters: dict[str, Any] | None = None,
    parameters_message: str | None = None,
    tools: bool = True,
) -> None:
    """Warn for what a file of conversations has no place for: the conversation's other
    formats' fields, its ``parameters`` (by default every one set; each named in its
    warning unless ``parameters_message``, in which ``{key}`` stands for the name), its tool
    choice and (``tools``) its tools."""
    words.foreign(conversation.extra, "", drift)
    if parameters is None:
        parameters = conversation.parameters.model_dump(exclude_defaults=True)
    report_parameters_dropped(parameters, drift, parameters_message or f"{words.holder} no {{key}}")
    if conversation.tool_choice is not None:
        why = f"{words.holder} no tool_choice"
        report_tool_choice_dropped(conversation.tool_choice, drift, why)
    for index, tool in enumerate(conversation.tools if tools else []):
        drift.add(
            "tool-unsupported",
            f"{words.holder} no tool definitions",
            field=f"tools[{index}]",
            original=tool.name,
        )


def thinking_text(block: ThinkingBlock, path: str, drift: Drift, unsigned: str) -> str | None:
    """The text a thinking block is written as (None, said, when it is redacted); a
    signature or encrypted data is stripped, said with ``unsigned``."""
    if not block.text:
        drift.add(
            "reasoning-dropped",
            "redacted reasoning has no text to write",
            field=path,
            details={"redacted": block.redacted},
        )
        return None
    if block.signature or block.data:
        report_signature_stripped(block, path, drift, unsigned)
    return block.text


class Writing(Protocol):
    """A render of one of these formats: what carries its warnings."""

    drift: Drift


W = TypeVar("W", bound=Writing)


def result_text(
    block: ToolResultBlock,
    path: str,
    ctx: W,
    text_of: Callable[[Block, str, W], str | None],
    results: str,
) -> str:
    """A tool result as text (``text_of`` writes its inner blocks), its error flag said as
    "Error: ..." where the file has no flag (``results``, "ShareGPT observations", have none)."""
    if isinstance(block.content, str):
        text = block.content
    else:
        inner = [text_of(b, f"{path}.content[{i}]", ctx) for i, b in enumerate(block.content)]
        text = "\n".join(t for t in inner if t is not None)
    return error_said_in_content(text, path, ctx.drift, results) if block.is_error else text


def cited_text(block: TextBlock, path: str, drift: Drift, why: str) -> str:
    """A text block's text; its citations are dropped, said with ``why``."""
    if block.citations:
        report_citations_dropped(block, path, drift, why)
    return block.text


@dataclass(frozen=True)
class PlainText:
    """How a format that holds text only writes a content block: a text block as its text
    (its citations dropped, ``citations`` says why), a refusal (and, with ``documents``, a
    plain-text document) as its text with the warning ``as_text`` words for it, any other
    block dropped with the warning ``dropped`` words for it."""

    citations: str
    as_text: Callable[[Block], str]
    dropped: Callable[[Block], str]
    documents: bool = True

    def text(self, block: Block, path: str, ctx: Writing) -> str | None:
        """The block's text, or None (said) when it has none to give."""
        if isinstance(block, TextBlock):
            return cited_text(block, path, ctx.drift, self.citations)
        if isinstance(block, RefusalBlock) or (
            self.documents and isinstance(block, DocumentBlock) and block.source.type == "text"
        ):
            report_block_as_text(block, path, ctx.drift, self.as_text(block))
            return block.text if isinstance(block, RefusalBlock) else block.source.data or ""
        report_block_dropped(block, path, ctx.drift, self.dropped(block))
        return None


def report_call_dropped(path: str, drift: Drift) -> None:
    """The warning for a tool call made by another role than the assistant."""
    drift.add("content-dropped", "only assistants call tools", field=path)


def report_call_id_dropped(block: ToolUseBlock, path: str, drift: Drift, why: str) -> None:
    """The note for a call written without its id (``why``: how results find it)."""
    report_rewritten(drift, why, f"{path}.id", block.id, None)


@dataclass(frozen=True)
class StableIds:
    """Ids for what a conversation gives none (uuids made from the conversation and a key,
    the same every time it is written)."""

    seed: str

    @classmethod
    def of(cls, conversation: Conversation) -> StableIds:
        """The ids of one conversation."""
        return cls(hashlib.sha256(conversation.model_dump_json().encode()).hexdigest())

    def uuid(self, key: str) -> str:
        """A uuid made from the conversation and ``key``."""
        digest = hashlib.sha256(f"{self.seed}/{key}".encode()).digest()
        return str(uuid.UUID(bytes=digest[:16], version=4))

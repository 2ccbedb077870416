"""The Unified Message Format (UMF): one provider-agnostic shape for LLM conversations.

UMF is the union of what the seed formats describe (UMF InternalMessage, ai.matey IR, Appam
UnifiedMessage, Forge, ART) and the provider wire formats, so that every format maps into it
without loss. The types are plain values with no database identity.

Two conventions keep round trips exact:

* ``extra`` on every block, message, tool and conversation holds the provider fields UMF has
  no name for, **namespaced by format id**: ``{"openai-chat": {"logprobs": null}}``. A format
  renders back only its own namespace, so fields of one provider never leak into another's
  request.
* Inside a namespace, keys that start with ``$`` are layout hints written by the format
  itself (for example ``"$content": "string"`` when a message's content was a bare string
  rather than a list of parts). Provider field names never start with ``$``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, ClassVar, Literal, TypeAlias

import msgspec

from providers._umf_base import (
    Typed,
    UMFModel,
    extra_field,
    factory,
)
from providers._umf_base import (
    UMFValidationError as UMFValidationError,  # what model_validate raises, named here
)

JSON: TypeAlias = Any
Extra: TypeAlias = dict[str, dict[str, Any]]

Role = Literal["system", "developer", "user", "assistant", "tool"]
FinishReason = Literal["stop", "length", "tool_calls", "content_filter", "error", "cancelled"]
Severity = Literal["info", "warning", "error"]

# The drift categories are a contract (DESIGN.md section 2): the ai.matey ones first, then
# the ones that conversion between wire formats needs.
WarningCategory = Literal[
    "parameter-normalized",
    "parameter-clamped",
    "parameter-unsupported",
    "capability-unsupported",
    "token-limit-exceeded",
    "stop-sequences-truncated",
    "system-message-transformed",
    "content-type-unsupported",
    "tool-unsupported",
    "model-substituted",
    "content-dropped",
    "reasoning-dropped",
    "signature-stripped",
    "role-merged",
    "message-reordered",
    "id-synthesized",
    "id-rewritten",
    "field-unknown",
    "parameter-defaulted",
]
WARNING_CATEGORIES: tuple[str, ...] = WarningCategory.__args__  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- blocks


class MediaSource(UMFModel, kw_only=True):
    """Where the bytes of an image, document or audio clip are.

    ``base64``: ``data`` with ``media_type``; ``url``: ``url``; ``text``: ``data`` is plain
    text (documents); ``file``: a provider-side ``file_id``.
    """

    type: Literal["base64", "url", "text", "file"]
    media_type: str | None = None
    data: str | None = None
    url: str | None = None
    file_id: str | None = None


class TextBlock(Typed, kw_only=True, tag="text"):
    type: ClassVar[Literal["text"]] = "text"
    text: str
    citations: list[dict[str, Any]] | None = None
    extra: Extra = extra_field()


class RefusalBlock(Typed, kw_only=True, tag="refusal"):
    """A model's refusal, kept apart from text where the provider does (OpenAI)."""

    type: ClassVar[Literal["refusal"]] = "refusal"
    text: str
    extra: Extra = extra_field()


class ImageBlock(Typed, kw_only=True, tag="image"):
    type: ClassVar[Literal["image"]] = "image"
    source: MediaSource
    detail: str | None = None
    extra: Extra = extra_field()


class DocumentBlock(Typed, kw_only=True, tag="document"):
    type: ClassVar[Literal["document"]] = "document"
    source: MediaSource
    title: str | None = None
    filename: str | None = None
    extra: Extra = extra_field()


class AudioBlock(Typed, kw_only=True, tag="audio"):
    type: ClassVar[Literal["audio"]] = "audio"
    source: MediaSource
    extra: Extra = extra_field()


class ToolUseBlock(Typed, kw_only=True, tag="tool_use"):
    """A call the assistant makes. ``raw_arguments`` is the provider's argument string when
    it sent one (it may be invalid JSON, in which case ``input`` is ``{}``)."""

    type: ClassVar[Literal["tool_use"]] = "tool_use"
    id: str
    name: str
    input: JSON = factory(dict)
    raw_arguments: str | None = None
    extra: Extra = extra_field()


class ThinkingBlock(Typed, kw_only=True, tag="thinking"):
    """Reasoning. ``signature`` / ``data`` are opaque continuity blobs that only the provider
    named in ``provider`` may receive back; ``redacted`` marks reasoning with no readable text."""

    type: ClassVar[Literal["thinking"]] = "thinking"
    text: str = ""
    signature: str | None = None
    redacted: bool = False
    data: str | None = None
    provider: str | None = None
    extra: Extra = extra_field()


class ToolResultBlock(Typed, kw_only=True, tag="tool_result"):
    type: ClassVar[Literal["tool_result"]] = "tool_result"
    tool_use_id: str
    content: str | list[Block] = ""
    is_error: bool | None = None
    name: str | None = None
    extra: Extra = extra_field()


Block: TypeAlias = (
    TextBlock
    | RefusalBlock
    | ImageBlock
    | DocumentBlock
    | AudioBlock
    | ToolUseBlock
    | ToolResultBlock
    | ThinkingBlock
)

BLOCK_TYPES: tuple[str, ...] = (
    "text",
    "refusal",
    "image",
    "document",
    "audio",
    "tool_use",
    "tool_result",
    "thinking",
)


# --------------------------------------------------------------------------- messages


class Usage(UMFModel, kw_only=True):
    """Token counts, normalised to OpenAI's meaning (prompt includes cached tokens,
    completion includes reasoning tokens); ``raw`` keeps the provider's own object."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None
    cached_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    raw: dict[str, Any] | None = None


class Message(UMFModel, kw_only=True):
    role: Role
    content: list[Block] = factory(list)
    name: str | None = None
    tool_call_id: str | None = None
    id: str | None = None
    parent_id: str | None = None
    timestamp: datetime | None = None
    model: str | None = None
    finish_reason: FinishReason | None = None
    provider_finish_reason: str | None = None
    usage: Usage | None = None
    reasoning: str | None = None
    reasoning_details: list[dict[str, Any]] | None = None
    # Context the source kept out of the person's sight (ChatGPT's profile, custom
    # instructions and memories): kept for the exact round trip, but left out of pages,
    # search, other formats and replays (see :func:`without_hidden`).
    hidden: bool = False
    metadata: dict[str, Any] = factory(dict)
    extra: Extra = extra_field()


class Tool(UMFModel, kw_only=True):
    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None
    extra: Extra = extra_field()


class ToolChoice(UMFModel, kw_only=True):
    type: Literal["auto", "required", "none", "tool"]
    name: str | None = None
    extra: Extra = extra_field()


class Parameters(UMFModel, kw_only=True):
    model: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    top_p: float | None = None
    top_k: int | None = None
    stop: list[str] | None = None
    seed: int | None = None
    frequency_penalty: float | None = None
    presence_penalty: float | None = None
    user: str | None = None
    parallel_tool_calls: bool | None = None
    stream: bool | None = None
    custom: dict[str, Any] = factory(dict)


class Provenance(UMFModel, kw_only=True):
    frontend: str | None = None
    backend: str | None = None
    middleware: list[str] = factory(list)
    router: str | None = None
    model: str | None = None


class DriftWarning(UMFModel, kw_only=True):
    """One thing a conversion could not carry as it was (dropped, clamped, re-mapped...).
    A severity equal to the default, however it was built, is left out of the UMF JSON
    (:func:`providers._umf_walk.dump_fixes`)."""

    category: WarningCategory
    severity: Severity = "warning"
    message: str
    field: str | None = None
    original_value: JSON = None
    transformed_value: JSON = None
    source: str | None = None
    details: dict[str, Any] | None = None


class Metadata(UMFModel, kw_only=True):
    request_id: str | None = None
    provider_response_id: str | None = None
    timestamp: datetime | None = None
    title: str | None = None
    provenance: Provenance | None = None
    warnings: list[DriftWarning] = factory(list)
    custom: dict[str, Any] = factory(dict)


class Conversation(UMFModel, kw_only=True):
    """A conversation (or request): messages in order plus what was offered to the model.

    Messages form a linear thread unless they carry ``parent_id``: then each names the
    ``id`` of its parent and the list holds a tree in which every parent comes before its
    children. A message without ``parent_id`` follows the one before it.
    """

    messages: list[Message] = factory(list)
    tools: list[Tool] = factory(list)
    tool_choice: ToolChoice | None = None
    parameters: Parameters = factory(Parameters)
    metadata: Metadata = factory(Metadata)
    extra: Extra = extra_field()


class Response(UMFModel, kw_only=True):
    """What a provider answered to one request."""

    message: Message
    finish_reason: FinishReason | None = None
    provider_finish_reason: str | None = None
    usage: Usage | None = None
    metadata: Metadata = factory(Metadata)


# --------------------------------------------------------------------------- stream chunks


class StreamStart(Typed, kw_only=True, tag="start"):
    type: ClassVar[Literal["start"]] = "start"
    sequence: int
    metadata: Metadata = factory(Metadata)


class StreamContent(Typed, kw_only=True, tag="content"):
    type: ClassVar[Literal["content"]] = "content"
    sequence: int
    delta: str
    accumulated: str | None = None
    role: Literal["assistant"] | None = None


class StreamToolUse(Typed, kw_only=True, tag="tool_use"):
    type: ClassVar[Literal["tool_use"]] = "tool_use"
    sequence: int
    id: str
    name: str
    input_delta: str | None = None


class StreamMetadata(Typed, kw_only=True, tag="metadata"):
    type: ClassVar[Literal["metadata"]] = "metadata"
    sequence: int
    usage: Usage | None = None
    metadata: Metadata | None = None


class StreamDone(Typed, kw_only=True, tag="done"):
    type: ClassVar[Literal["done"]] = "done"
    sequence: int
    finish_reason: FinishReason
    usage: Usage | None = None
    message: Message | None = None


class StreamError(Typed, kw_only=True, tag="error"):
    type: ClassVar[Literal["error"]] = "error"
    sequence: int
    code: str
    message: str
    details: dict[str, Any] | None = None


StreamChunk: TypeAlias = (
    StreamStart | StreamContent | StreamToolUse | StreamMetadata | StreamDone | StreamError
)


# --------------------------------------------------------------------------- helpers


def _content(content: str | Iterable[Block]) -> list[Block]:
    if isinstance(content, str):
        return [TextBlock(text=content)]
    return list(content)


def system(content: str | Iterable[Block]) -> Message:
    """A system message."""
    return Message(role="system", content=_content(content))


def user(content: str | Iterable[Block]) -> Message:
    """A user message."""
    return Message(role="user", content=_content(content))


def assistant(content: str | Iterable[Block], tool_calls: Iterable[ToolUseBlock] = ()) -> Message:
    """An assistant message, optionally followed by tool calls (``assistant_with_tools``)."""
    blocks = _content(content) if content else []
    return Message(role="assistant", content=[*blocks, *tool_calls])


def tool_result(
    tool_call_id: str, name: str | None, content: str | list[Block], *, is_error: bool = False
) -> Message:
    """A tool-role message answering the call ``tool_call_id``."""
    block = ToolResultBlock(
        tool_use_id=tool_call_id, name=name, content=content, is_error=is_error or None
    )
    return Message(role="tool", tool_call_id=tool_call_id, name=name, content=[block])


def extract_text(message: Message) -> str:
    """The visible text of a message: its text blocks joined together."""
    return "".join(block.text for block in message.content if isinstance(block, TextBlock))


def extract_tool_calls(message: Message) -> list[ToolUseBlock]:
    """The tool calls a message makes, in order."""
    return [block for block in message.content if isinstance(block, ToolUseBlock)]


def has_tool_calls(message: Message) -> bool:
    """Whether the message makes at least one tool call."""
    return any(isinstance(block, ToolUseBlock) for block in message.content)


def extract_reasoning(message: Message) -> str | None:
    """The message's reasoning text (thinking blocks, else ``reasoning``), or None."""
    parts = [b.text for b in message.content if isinstance(b, ThinkingBlock) and b.text]
    if parts:
        return "\n".join(parts)
    return message.reasoning


def without_hidden(conversation: Conversation) -> tuple[Conversation, list[Message]]:
    """The conversation without its hidden messages, and those messages.

    A message whose parent is hidden hangs from the nearest visible ancestor instead (or
    becomes a root), so the tree keeps its shape. The conversation comes back as it is
    when nothing is hidden.
    """
    hidden = [m for m in conversation.messages if m.hidden]
    if not hidden:
        return conversation, []
    parents: dict[str, str | None] = {}
    previous: str | None = None
    for message in conversation.messages:
        if message.id is not None:
            parents.setdefault(message.id, message.parent_id or previous)
            previous = message.id
    hidden_ids = {m.id for m in hidden if m.id is not None}
    kept: list[Message] = []
    for message in conversation.messages:
        if message.hidden:
            continue
        parent = message.parent_id
        seen: set[str] = set()
        while parent in hidden_ids and parent not in seen:
            seen.add(parent)
            parent = parents.get(parent)
        kept.append(
            message
            if parent == message.parent_id
            else message.model_copy(update={"parent_id": parent})
        )
    return conversation.model_copy(update={"messages": kept}), hidden


def main_path(conversation: Conversation, leaf_id: str | None = None) -> list[Message]:
    """The thread from the root to ``leaf_id`` (default: the last message) of a tree.

    A conversation without ``parent_id`` links is already linear and comes back as is. In
    a tree, a message without ``parent_id`` follows the one before it, as it is stored:
    only the first message is a root.
    """
    messages = conversation.messages
    for message in messages:
        if message.parent_id:
            break
    else:
        return list(messages)
    by_id: dict[str, Message] = {}
    parents: dict[int, Message | None] = {}
    previous: Message | None = None
    for message in messages:
        parents[id(message)] = by_id.get(message.parent_id) if message.parent_id else previous
        if message.id is not None:
            by_id.setdefault(message.id, message)
        previous = message
    node: Message | None = by_id.get(leaf_id) if leaf_id else messages[-1] if messages else None
    path: list[Message] = []
    seen: set[int] = set()
    while node is not None and id(node) not in seen:
        seen.add(id(node))
        path.append(node)
        node = parents.get(id(node))
    path.reverse()
    return path


def _decoding_ready() -> None:
    """Build msgspec's decoding information of every UMF type now, while this module is
    imported (by one thread, under the import lock). msgspec builds it the first time a
    value of a type is converted or decoded, and two threads doing that at once can crash
    the process (msgspec 0.22, CPython 3.11): a replay worker's threads reading their
    first conversations at the same moment died of a segmentation fault
    (``tests/providers/test_umf_threads.py``)."""
    pending = [UMFModel]
    while pending:
        for cls in pending.pop().__subclasses__():
            msgspec.json.Decoder(cls)
            pending.append(cls)


_decoding_ready()

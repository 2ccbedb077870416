"""IR stream chunks (a JSON array of ``IRStreamChunk``) <-> the answer they build.

Reading accumulates the chunks into the final assistant message: content deltas become text
(a run of them one text block), ``tool_use`` chunks one call per id with the concatenated
``inputDelta`` as its raw argument string, ``metadata`` chunks update usage and metadata,
``done`` gives the finish reason, usage and (when present, authoritative) the whole
message; an ``error`` chunk finishes with ``error`` and its error in the message's
metadata. The chunks themselves are kept (``$chunks``) and come back exactly while the
answer is unchanged; otherwise a stream is written from the answer (start, one content or
tool_use chunk per block, done with the whole message).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._kit.fields import require_list, require_mapping, require_str
from providers.formats._kit.paths import at, is_int, item, require
from providers.formats._kit.wire import parse_arguments
from providers.formats.base import FormatError
from providers.formats.matey_ir._constants import CHUNK_TYPES
from providers.formats.matey_ir._parse_messages import parse_message
from providers.formats.matey_ir._parse_metadata import (
    merge_metadata,
    parse_finish_reason,
    parse_metadata,
    parse_usage,
)
from providers.umf import (
    JSON,
    Block,
    FinishReason,
    Message,
    Metadata,
    TextBlock,
    ToolUseBlock,
    Usage,
)


@dataclass
class _Accumulator:
    """What the chunks read so far add up to."""

    blocks: list[Block] = field(default_factory=list)
    text: list[str] | None = None  # the deltas of the text run being read
    calls: dict[str, list[str]] = field(default_factory=dict)  # argument deltas by call id
    metadata: Metadata | None = None
    usage: Usage | None = None
    finish: FinishReason | None = None
    error: dict[str, Any] | None = None
    message: Message | None = None

    def add(self, chunk: dict[str, Any], path: str) -> None:
        kind = chunk.get("type")
        if kind not in CHUNK_TYPES:
            raise FormatError(
                f"chunk type is one of {', '.join(CHUNK_TYPES)}", field=at(path, "type")
            )
        require(chunk.get("sequence"), is_int, "an integer", at(path, "sequence"))
        handlers = {
            "start": self._start,
            "content": self._content,
            "tool_use": self._tool_use,
            "metadata": self._metadata_chunk,
            "done": self._done,
            "error": self._error,
        }
        handlers[kind](chunk, path)

    def _start(self, chunk: dict[str, Any], path: str) -> None:
        self._merge(parse_metadata(chunk.get("metadata"), at(path, "metadata")))

    def _merge(self, update: Metadata) -> None:
        self.metadata = update if self.metadata is None else merge_metadata(self.metadata, update)

    def _content(self, chunk: dict[str, Any], path: str) -> None:
        delta = require_str(chunk.get("delta"), at(path, "delta"))
        if chunk.get("accumulated") is not None:
            require_str(chunk["accumulated"], at(path, "accumulated"))
        if chunk.get("role") not in (None, "assistant"):
            raise FormatError("a content chunk's role is assistant", field=at(path, "role"))
        if self.text is None:
            self.text = []
            self.blocks.append(TextBlock(text=""))
        self.text.append(delta)
        self.blocks[-1] = TextBlock(text="".join(self.text))

    def _tool_use(self, chunk: dict[str, Any], path: str) -> None:
        call_id = require_str(chunk.get("id"), at(path, "id"))
        name = require_str(chunk.get("name"), at(path, "name"))
        if chunk.get("index") is not None:
            require(chunk["index"], is_int, "an integer", at(path, "index"))
        if call_id not in self.calls:
            self.text = None
            self.calls[call_id] = []
            self.blocks.append(ToolUseBlock(id=call_id, name=name))
        if chunk.get("inputDelta") is not None:
            self.calls[call_id].append(require_str(chunk["inputDelta"], at(path, "inputDelta")))

    def _metadata_chunk(self, chunk: dict[str, Any], path: str) -> None:
        if chunk.get("usage") is not None:
            update = parse_usage(chunk["usage"], at(path, "usage"), partial=True)
            self.usage = (
                update
                if self.usage is None
                else self.usage.model_copy(update=update.model_dump(exclude_defaults=True))
            )
        if chunk.get("metadata") is not None:
            self._merge(parse_metadata(chunk["metadata"], at(path, "metadata"), partial=True))

    def _done(self, chunk: dict[str, Any], path: str) -> None:
        self.finish = parse_finish_reason(chunk.get("finishReason"), at(path, "finishReason"))
        if chunk.get("usage") is not None:
            self.usage = parse_usage(chunk["usage"], at(path, "usage"))
        if chunk.get("message") is not None:
            self.message = parse_message(chunk["message"], at(path, "message"))
            if self.message.role != "assistant":
                raise FormatError(
                    "a done chunk's message is the assistant's", field=at(path, "message.role")
                )

    def _error(self, chunk: dict[str, Any], path: str) -> None:
        error = require_mapping(chunk.get("error"), at(path, "error"))
        require_str(error.get("code"), at(path, "error.code"))
        require_str(error.get("message"), at(path, "error.message"))
        if error.get("details") is not None:
            require_mapping(error["details"], at(path, "error.details"))
        self.error = dict(error)
        self.finish = self.finish or "error"

    def answer(self) -> Message:
        """The final assistant message: done's message when it has one (the streamed
        argument strings kept on its calls), else what the chunks added up to."""
        streamed: dict[str, tuple[Any, str | None]] = {}
        for call_id, deltas in self.calls.items():
            raw = "".join(deltas) if deltas else None
            value, ok = parse_arguments(raw) if raw else ({}, True)
            streamed[call_id] = (value if ok and isinstance(value, dict) else {}, raw)
        answer = self.message or Message(role="assistant", content=self.blocks)
        for block in answer.content:
            if isinstance(block, ToolUseBlock) and block.id in streamed:
                value, raw = streamed[block.id]
                if self.message is None:
                    block.input = value
                if block.input == value:
                    block.raw_arguments = raw
        answer.finish_reason = self.finish
        answer.usage = self.usage
        if self.error is not None:
            answer.metadata = {**answer.metadata, "error": self.error}
        return answer


def parse_stream(raw: JSON, path: str) -> tuple[Message, Metadata | None]:
    """The answer a chunk array builds, and the metadata its chunks carry."""
    accumulator = _Accumulator()
    for index, chunk in enumerate(require_list(raw, path or "payload")):
        chunk_path = item(path, index)
        accumulator.add(require_mapping(chunk, chunk_path), chunk_path)
    return accumulator.answer(), accumulator.metadata

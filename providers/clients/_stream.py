"""UMF stream chunks as a client passes them to its caller's ``on_chunk``, numbered in order.

Each provider's stream reader calls :class:`ChunkEmitter` as wire events arrive (text
deltas, tool calls starting and their argument fragments); the shared client code adds the
usage and the final ``done`` chunk once the assembled answer has been parsed, so that the
``done`` message is exactly the :class:`Response` the call returns.
"""

from __future__ import annotations

from typing import Any

from providers.clients.base import ChunkCallback
from providers.umf import (
    Metadata,
    Response,
    StreamChunk,
    StreamContent,
    StreamDone,
    StreamError,
    StreamMetadata,
    StreamStart,
    StreamToolUse,
)


class ChunkEmitter:
    """Numbers and hands out UMF stream chunks; does nothing without a callback."""

    def __init__(self, callback: ChunkCallback | None) -> None:
        self._callback = callback
        self._sequence = 0
        self.started = False
        self.errored = False
        self._text: dict[int, str] = {}

    def _emit(self, chunk: StreamChunk) -> None:
        if self._callback is not None:
            self._callback(chunk)
        self._sequence += 1

    def start(self, *, response_id: str | None = None) -> None:
        """The ``start`` chunk, once, before anything else."""
        if self.started:
            return
        self.started = True
        metadata = Metadata(provider_response_id=response_id)
        self._emit(StreamStart(sequence=self._sequence, metadata=metadata))

    def text(self, delta: str, *, part: int = 0) -> None:
        """A piece of visible text; ``part`` tells apart parallel text parts (choices)."""
        if not delta:
            return
        self.start()
        accumulated = self._text.get(part, "") + delta
        self._text[part] = accumulated
        self._emit(
            StreamContent(
                sequence=self._sequence, delta=delta, accumulated=accumulated, role="assistant"
            )
        )

    def tool_use(self, call_id: str, name: str, input_delta: str | None = None) -> None:
        """A tool call starting (no delta) or a fragment of its JSON arguments."""
        self.start()
        self._emit(
            StreamToolUse(sequence=self._sequence, id=call_id, name=name, input_delta=input_delta)
        )

    def error(self, code: str, message: str, details: dict[str, Any] | None = None) -> None:
        """The stream broke: an error event, a cut, an unreadable event (raised right after)."""
        self.start()
        self.errored = True
        self._emit(
            StreamError(sequence=self._sequence, code=code, message=message, details=details)
        )

    def finish(self, response: Response) -> None:
        """The usage (when there is any) and the ``done`` chunk carrying the final message."""
        self.start()
        if response.usage is not None:
            self._emit(StreamMetadata(sequence=self._sequence, usage=response.usage))
        self._emit(
            StreamDone(
                sequence=self._sequence,
                # A provider reason UMF has no name for (Anthropic's pause_turn) is still
                # a normal end of the stream; the raw reason is on the message.
                finish_reason=response.finish_reason or "stop",
                usage=response.usage,
                message=response.message,
            )
        )

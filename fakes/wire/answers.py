"""What the fake model answers (:class:`Answer`), and the pieces every wire format is
written with: stable ids (:class:`Call`) and stream frames (SSE or NDJSON)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import orjson

FinishReason = Literal["auto", "stop", "length", "tool_calls", "content_filter"]
# Fixed, so that two calls with the same request give the same answer, stream or not.
CREATED = 1_760_000_000
CREATED_AT = "2025-10-09T08:53:20Z"


@dataclass(frozen=True)
class ToolCall:
    """One call the fake model makes; ``id`` defaults to one derived from the request."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True)
class Answer:
    """What the fake model answers. ``finish="auto"`` means ``tool_calls`` when there are
    calls, else ``stop``. ``chunk_size`` is how many characters each text delta carries."""

    text: str = "Hello from the fake provider."
    tool_calls: tuple[ToolCall, ...] = ()
    thinking: str | None = None
    signature: str | None = None
    prompt_tokens: int = 12
    completion_tokens: int = 7
    reasoning_tokens: int = 0
    cached_tokens: int = 0
    finish: FinishReason = "auto"
    model: str | None = None
    chunk_size: int = 8

    @property
    def finish_reason(self) -> str:
        """The finish reason in UMF's words."""
        if self.finish != "auto":
            return self.finish
        return "tool_calls" if self.tool_calls else "stop"

    def pieces(self) -> list[str]:
        """The text cut in stream deltas."""
        size = max(self.chunk_size, 1)
        return [self.text[i : i + size] for i in range(0, len(self.text), size)]


@dataclass(frozen=True)
class Call:
    """What the server read from one request: enough to answer it."""

    provider: str
    model: str
    stream: bool
    include_usage: bool
    key: str  # a short hash of the request (without its stream flags): stable ids

    def call_id(self, call: ToolCall, index: int, prefix: str = "call") -> str:
        """The tool call's id: its own, else one derived from the request."""
        return call.id or f"{prefix}_{self.key[:10]}_{index}"


@dataclass(frozen=True)
class Frame:
    """One piece of a stream; ``terminal`` marks what tells the client the answer is done."""

    data: bytes
    terminal: bool = False


def sse(data: Any, event: str | None = None, *, terminal: bool = False) -> Frame:
    """An SSE frame (``event:`` line when named) holding ``data`` as JSON (or a raw string)."""
    payload = data.encode() if isinstance(data, str) else orjson.dumps(data)
    head = f"event: {event}\n".encode() if event else b""
    return Frame(head + b"data: " + payload + b"\n\n", terminal)


def ndjson(data: Any, *, terminal: bool = False) -> Frame:
    """One NDJSON line."""
    return Frame(orjson.dumps(data) + b"\n", terminal)


def arguments_json(call: ToolCall) -> str:
    """The call's arguments as the compact JSON string providers send."""
    return orjson.dumps(call.arguments).decode()


def split_text(text: str, size: int) -> list[str]:
    """``text`` in pieces of ``size`` characters (one empty piece for empty text)."""
    size = max(size, 1)
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]

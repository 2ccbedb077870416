"""``ollama``: ``POST {base_url}/api/chat`` (``base_url`` is ``OLLAMA_HOST``).

Ollama streams unless told not to, so the body always says ``"stream": false`` or
``true``. A stream is NDJSON: each line a partial response whose ``message.content`` and
``message.thinking`` continue the text, tool calls arriving whole; the line with
``"done": true`` carries the finish reason and the counts. A key, when configured (Ollama's
cloud, an authenticating proxy), travels as a Bearer token.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import orjson

from providers.clients._errors import error_from_event
from providers.clients._http import HttpClient, StreamReader, StreamState, decode_object
from providers.clients._stream import ChunkEmitter
from providers.umf import JSON

_LABEL = "Ollama"


class OllamaClient(HttpClient):
    """A client for Ollama's native chat API."""

    kind = "ollama"
    label = _LABEL
    path = "/api/chat"

    def set_streaming(self, payload: dict[str, Any], stream: bool) -> None:
        """Always explicit: Ollama's default is to stream."""
        payload["stream"] = stream

    def stream_reader(self, emitter: ChunkEmitter) -> StreamReader:
        """A reader of NDJSON chat lines."""
        return ChatLineStream(emitter)

    def stream_events(self, response: httpx.Response) -> Iterator[tuple[str, str]]:
        """NDJSON: one event per non-empty line."""
        for line in response.iter_lines():
            if line.strip():
                yield "line", line


class ChatLineStream(StreamState):
    """Joins NDJSON chat lines into the response ``"stream": false`` would have given."""

    def __init__(self, emitter: ChunkEmitter) -> None:
        super().__init__(emitter)
        self._last: dict[str, Any] = {}
        self._message: dict[str, Any] = {}
        self._calls = 0

    def feed(self, event: str, data: str) -> None:
        """One line: a partial response, the final ``done`` one, or an ``error``."""
        line = decode_object(data, _LABEL, "a stream line")
        self.last_event = "done" if line.get("done") else "line"
        if "error" in line:
            self.emitter.error("error", str(line["error"]))
            raise error_from_event(line["error"], context=_LABEL)
        self.emitter.start()
        message = line.get("message")
        if isinstance(message, dict):
            self._merge(message)
        self._last = line
        if line.get("done") is True:
            self.finished = True

    def _merge(self, message: dict[str, Any]) -> None:
        # Text continues (content, thinking), lists grow (tool_calls, images), the rest is set.
        for key, value in message.items():
            previous = self._message.get(key)
            joinable = isinstance(value, str | list) and type(value) is type(previous)
            self._message[key] = previous + value if joinable and key != "role" else value
            if key == "content" and isinstance(value, str):
                self.emitter.text(value)
            elif key == "tool_calls" and isinstance(value, list):
                for call in value:
                    self._tool_call(call)

    def _tool_call(self, call: Any) -> None:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            return
        self._calls += 1
        call_id = str(call.get("id") or f"call_{self._calls}")
        name = str(function.get("name", ""))
        self.emitter.tool_use(call_id, name)
        if function.get("arguments"):
            self.emitter.tool_use(call_id, name, orjson.dumps(function["arguments"]).decode())

    def payload(self) -> JSON:
        """The final line's fields around the joined message."""
        message = {"role": "assistant", **self._message}
        return {**self._last, "message": message}

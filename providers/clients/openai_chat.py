"""``openai-chat``: ``POST {base_url}/chat/completions`` with a Bearer key.

Works for OpenAI and every server that speaks its Chat Completions API (vLLM, Ollama's
``/v1``, OpenRouter, LM Studio): point ``base_url`` at the ``/v1`` root. A stream is SSE
``data:`` chunks ending with ``data: [DONE]``; tool-call fragments are joined by their
``index`` and ``stream_options.include_usage`` brings a last chunk with the usage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.clients._errors import error_from_event
from providers.clients._http import HttpClient, StreamReader, StreamState, decode_object
from providers.clients._stream import ChunkEmitter
from providers.umf import JSON

_LABEL = "OpenAI Chat"


class OpenAIChatClient(HttpClient):
    """A client for the OpenAI Chat Completions API and compatible servers."""

    kind = "openai-chat"
    label = _LABEL
    path = "/chat/completions"  # base_url ends with /v1

    def set_streaming(self, payload: dict[str, Any], stream: bool) -> None:
        """``stream`` plus ``stream_options.include_usage``, which OpenAI refuses unless
        it streams."""
        if stream:
            payload["stream"] = True
            options = payload.get("stream_options")
            payload["stream_options"] = {
                **(options if isinstance(options, dict) else {}),
                "include_usage": True,
            }
        else:
            payload.pop("stream", None)
            payload.pop("stream_options", None)

    def stream_reader(self, emitter: ChunkEmitter) -> StreamReader:
        """A reader of ``chat.completion.chunk`` events."""
        return ChatCompletionStream(emitter)


@dataclass
class _Choice:
    fields: dict[str, Any] = field(default_factory=dict)
    message: dict[str, Any] = field(default_factory=dict)
    tool_calls: dict[int, dict[str, Any]] = field(default_factory=dict)
    finish_reason: str | None = None


class ChatCompletionStream(StreamState):
    """Joins ``chat.completion.chunk`` events back into one ``chat.completion``."""

    def __init__(self, emitter: ChunkEmitter) -> None:
        super().__init__(emitter)
        self._top: dict[str, Any] = {}
        self._usage: Any = None
        self._choices: dict[int, _Choice] = {}

    def feed(self, event: str, data: str) -> None:
        """One ``data:`` line: a chunk, an ``error`` object, or ``[DONE]``."""
        if data.strip() == "[DONE]":
            self.finished = True
            self.last_event = "[DONE]"
            return
        chunk = decode_object(data, _LABEL, "a stream chunk")
        self.last_event = "chunk"
        if "error" in chunk:
            error = chunk["error"]
            message = error.get("message") if isinstance(error, dict) else error
            code = (error.get("type") or error.get("code")) if isinstance(error, dict) else None
            self.emitter.error(str(code or "error"), str(message))
            raise error_from_event(error, context=_LABEL)
        self.emitter.start(response_id=chunk.get("id"))
        for key, value in chunk.items():
            if key not in ("choices", "usage", "object"):
                self._top[key] = value
        if chunk.get("usage") is not None:
            self._usage = chunk["usage"]
        for choice in chunk.get("choices") or ():
            if isinstance(choice, dict):
                self._choice(choice)

    def _choice(self, raw: dict[str, Any]) -> None:
        index = raw.get("index", 0)
        state = self._choices.setdefault(index if isinstance(index, int) else 0, _Choice())
        for key, value in raw.items():
            if key == "delta" and isinstance(value, dict):
                self._delta(state, value, index)
            elif key == "finish_reason":
                state.finish_reason = value if value is not None else state.finish_reason
            elif key != "delta":
                state.fields[key] = value

    def _delta(self, state: _Choice, delta: dict[str, Any], index: int) -> None:
        message = state.message
        for key, value in delta.items():
            if key == "tool_calls":
                for fragment in value or ():
                    if isinstance(fragment, dict):
                        self._tool_fragment(state, fragment)
            elif key == "role" or not isinstance(value, str):
                if value is not None or key not in message:
                    message[key] = value
            else:
                # content, refusal and vendor text fields (reasoning_content...) arrive in pieces.
                previous = message.get(key)
                message[key] = (previous if isinstance(previous, str) else "") + value
                if key == "content":
                    self.emitter.text(value, part=index)

    def _tool_fragment(self, state: _Choice, fragment: dict[str, Any]) -> None:
        position = fragment.get("index", len(state.tool_calls))
        call = state.tool_calls.get(position)
        is_new = call is None
        if call is None:
            call = state.tool_calls[position] = {"type": "function", "function": {}}
        for key in ("id", "type"):
            if fragment.get(key) is not None:
                call[key] = fragment[key]
        function = call["function"]
        pieces = fragment.get("function") or {}
        for key in ("name", "arguments"):
            piece = pieces.get(key)
            if isinstance(piece, str):
                function[key] = function.get(key, "") + piece
        function.setdefault("arguments", "")
        call_id = str(call.get("id") or f"call_{position}")
        name = str(function.get("name", ""))
        if is_new:
            self.emitter.tool_use(call_id, name)
        if pieces.get("arguments"):
            self.emitter.tool_use(call_id, name, str(pieces["arguments"]))

    def payload(self) -> JSON:
        """The ``chat.completion`` the plain endpoint would have answered."""
        response: dict[str, Any] = {**self._top, "object": "chat.completion", "choices": []}
        for index in sorted(self._choices):
            state = self._choices[index]
            message = {"role": "assistant", **state.message}
            message.setdefault("content", None)
            if state.tool_calls:
                message["tool_calls"] = [call for _, call in sorted(state.tool_calls.items())]
            choice = {"index": index, **state.fields, "message": message}
            choice["finish_reason"] = state.finish_reason
            response["choices"].append(choice)
        if self._usage is not None:
            response["usage"] = self._usage
        return response

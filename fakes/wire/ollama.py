"""Ollama on the wire: an ``/api/chat`` response and its NDJSON lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fakes.wire.answers import CREATED_AT, Answer, Call, Frame, ndjson


class OllamaWire:
    """``/api/chat``: one JSON object, or NDJSON lines ending with ``"done": true``."""

    content_type = "application/x-ndjson"
    _DONE = {"stop": "stop", "length": "length", "tool_calls": "stop", "content_filter": "stop"}
    _METRICS = {
        "total_duration": 1_200_000_000,
        "load_duration": 10_000_000,
        "prompt_eval_duration": 90_000_000,
        "eval_duration": 1_000_000_000,
    }

    def _head(self, answer: Answer, call: Call) -> dict[str, Any]:
        return {"model": answer.model or call.model, "created_at": CREATED_AT}

    def _tool_calls(self, answer: Answer, call: Call) -> list[dict[str, Any]]:
        return [
            {
                "id": call.call_id(tool, index),
                "function": {"index": index, "name": tool.name, "arguments": tool.arguments},
            }
            for index, tool in enumerate(answer.tool_calls)
        ]

    def _done(self, answer: Answer) -> dict[str, Any]:
        return {
            "done": True,
            "done_reason": self._DONE[answer.finish_reason],
            **self._METRICS,
            "prompt_eval_count": answer.prompt_tokens,
            "eval_count": answer.completion_tokens,
        }

    def plain(self, answer: Answer, call: Call) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": answer.text}
        if answer.thinking is not None:
            message["thinking"] = answer.thinking
        if answer.tool_calls:
            message["tool_calls"] = self._tool_calls(answer, call)
        return {**self._head(answer, call), "message": message, **self._done(answer)}

    def frames(self, answer: Answer, call: Call) -> Iterator[Frame]:
        head = self._head(answer, call)
        if answer.thinking is not None:
            thinking = {"role": "assistant", "content": "", "thinking": answer.thinking}
            yield ndjson({**head, "message": thinking, "done": False})
        for piece in answer.pieces():
            message = {"role": "assistant", "content": piece}
            yield ndjson({**head, "message": message, "done": False})
        if answer.tool_calls:
            tools = {
                "role": "assistant",
                "content": "",
                "tool_calls": self._tool_calls(answer, call),
            }
            yield ndjson({**head, "message": tools, "done": False})
        last = {"role": "assistant", "content": ""}
        yield ndjson({**head, "message": last, **self._done(answer)}, terminal=True)

    def error_frame(self, error_type: str, message: str) -> Frame:
        return ndjson({"error": message})

    def error_body(self, status: int, error_type: str, message: str) -> dict[str, Any]:
        return {"error": message}

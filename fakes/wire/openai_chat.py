"""OpenAI Chat Completions on the wire: ``chat.completion`` and its SSE chunks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fakes.wire.answers import CREATED, Answer, Call, Frame, arguments_json, split_text, sse


class OpenAIChatWire:
    """``chat.completion`` and ``chat.completion.chunk`` SSE ending with ``[DONE]``."""

    content_type = "text/event-stream"
    _FINISH = {"stop": "stop", "length": "length", "tool_calls": "tool_calls"}
    _FINISH |= {"content_filter": "content_filter"}

    def _usage(self, answer: Answer) -> dict[str, Any]:
        return {
            "prompt_tokens": answer.prompt_tokens,
            "completion_tokens": answer.completion_tokens,
            "total_tokens": answer.prompt_tokens + answer.completion_tokens,
            "prompt_tokens_details": {"cached_tokens": answer.cached_tokens},
            "completion_tokens_details": {"reasoning_tokens": answer.reasoning_tokens},
        }

    def _top(self, answer: Answer, call: Call, kind: str) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-{call.key}",
            "object": kind,
            "created": CREATED,
            "model": answer.model or call.model,
            "system_fingerprint": "fp_fake",
        }

    def _tool_calls(self, answer: Answer, call: Call) -> list[dict[str, Any]]:
        return [
            {
                "id": call.call_id(tool, index),
                "type": "function",
                "function": {"name": tool.name, "arguments": arguments_json(tool)},
            }
            for index, tool in enumerate(answer.tool_calls)
        ]

    def plain(self, answer: Answer, call: Call) -> dict[str, Any]:
        message: dict[str, Any] = {
            "role": "assistant",
            "content": answer.text or None,
            "refusal": None,
        }
        if answer.tool_calls:
            message["tool_calls"] = self._tool_calls(answer, call)
        choice = {
            "index": 0,
            "message": message,
            "logprobs": None,
            "finish_reason": self._FINISH[answer.finish_reason],
        }
        return {**self._top(answer, call, "chat.completion"), "choices": [choice]} | {
            "usage": self._usage(answer)
        }

    def frames(self, answer: Answer, call: Call) -> Iterator[Frame]:
        top = self._top(answer, call, "chat.completion.chunk")
        if call.include_usage:
            top["usage"] = None

        def chunk(delta: dict[str, Any], finish: str | None = None) -> Frame:
            choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            return sse({**top, "choices": [choice]})

        first = {"role": "assistant", "content": "" if answer.text else None, "refusal": None}
        yield chunk(first)
        for piece in answer.pieces():
            yield chunk({"content": piece})
        for index, tool in enumerate(self._tool_calls(answer, call)):
            head = {**tool, "function": {"name": tool["function"]["name"], "arguments": ""}}
            yield chunk({"tool_calls": [{"index": index, **head}]})
            for piece in split_text(tool["function"]["arguments"], answer.chunk_size):
                yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        yield chunk({}, self._FINISH[answer.finish_reason])
        if call.include_usage:
            yield sse({**top, "choices": [], "usage": self._usage(answer)})
        yield sse("[DONE]", terminal=True)

    def error_frame(self, error_type: str, message: str) -> Frame:
        return sse({"error": {"message": message, "type": error_type, "param": None, "code": None}})

    def error_body(self, status: int, error_type: str, message: str) -> dict[str, Any]:
        return {"error": {"message": message, "type": error_type, "param": None, "code": None}}

"""Gemini on the wire: ``GenerateContentResponse`` and its ``alt=sse`` chunks."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from fakes.wire.answers import Answer, Call, Frame, sse


class GeminiWire:
    """``GenerateContentResponse`` and its ``alt=sse`` chunks (no ``[DONE]``: the chunk
    with ``finishReason`` is the last)."""

    content_type = "text/event-stream"
    _FINISH = {"stop": "STOP", "length": "MAX_TOKENS", "tool_calls": "STOP"}
    _FINISH |= {"content_filter": "SAFETY"}

    def _parts(self, answer: Answer, call: Call, text: str) -> list[dict[str, Any]]:
        parts: list[dict[str, Any]] = []
        if answer.thinking is not None:
            parts.append({"text": answer.thinking, "thought": True})
        if text:
            parts.append({"text": text})
        for index, tool in enumerate(answer.tool_calls):
            function = {"id": call.call_id(tool, index), "name": tool.name, "args": tool.arguments}
            parts.append({"functionCall": function})
        if answer.signature is not None and parts:
            # On the first function call when there is one, else on the last part.
            calls = [part for part in parts if "functionCall" in part]
            (calls[0] if calls else parts[-1])["thoughtSignature"] = answer.signature
        return parts

    def _usage(self, answer: Answer) -> dict[str, Any]:
        usage = {
            "promptTokenCount": answer.prompt_tokens,
            "candidatesTokenCount": answer.completion_tokens,
            "totalTokenCount": answer.prompt_tokens
            + answer.completion_tokens
            + answer.reasoning_tokens,
        }
        if answer.reasoning_tokens:
            usage["thoughtsTokenCount"] = answer.reasoning_tokens
        if answer.cached_tokens:
            usage["cachedContentTokenCount"] = answer.cached_tokens
        return usage

    def _response(self, answer: Answer, call: Call, parts: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}],
            "modelVersion": answer.model or call.model,
            "responseId": f"gem-{call.key}",
        }

    def plain(self, answer: Answer, call: Call) -> dict[str, Any]:
        body = self._response(answer, call, self._parts(answer, call, answer.text))
        body["candidates"][0]["finishReason"] = self._FINISH[answer.finish_reason]
        body["usageMetadata"] = self._usage(answer)
        return body

    def frames(self, answer: Answer, call: Call) -> Iterator[Frame]:
        pieces = answer.pieces()
        running = {
            "promptTokenCount": answer.prompt_tokens,
            "totalTokenCount": answer.prompt_tokens,
        }
        if answer.thinking is not None:
            thought = [{"text": answer.thinking, "thought": True}]
            yield sse({**self._response(answer, call, thought), "usageMetadata": running})
        for piece in pieces[:-1]:
            yield sse({**self._response(answer, call, [{"text": piece}]), "usageMetadata": running})
        last = replace(answer, text=pieces[-1] if pieces else "", thinking=None)
        body = self._response(answer, call, self._parts(last, call, last.text))
        body["candidates"][0]["finishReason"] = self._FINISH[answer.finish_reason]
        body["usageMetadata"] = self._usage(answer)
        yield sse(body, terminal=True)

    _CODES = {"INVALID_ARGUMENT": 400, "UNAUTHENTICATED": 401, "PERMISSION_DENIED": 403}
    _CODES |= {"NOT_FOUND": 404, "RESOURCE_EXHAUSTED": 429, "INTERNAL": 500}

    def error_frame(self, error_type: str, message: str) -> Frame:
        code = self._CODES.get(error_type, 503)
        return sse({"error": {"code": code, "message": message, "status": error_type}})

    def error_body(self, status: int, error_type: str, message: str) -> dict[str, Any]:
        return {"error": {"code": status, "message": message, "status": error_type}}

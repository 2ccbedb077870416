"""Anthropic Messages on the wire: a Message and its named SSE events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson

from fakes.wire.answers import Answer, Call, Frame, split_text, sse


class AnthropicWire:
    """A Messages response, and its named SSE events."""

    content_type = "text/event-stream"
    _STOP = {"stop": "end_turn", "length": "max_tokens", "tool_calls": "tool_use"}
    _STOP |= {"content_filter": "refusal"}

    def _blocks(self, answer: Answer, call: Call) -> list[dict[str, Any]]:
        blocks: list[dict[str, Any]] = []
        if answer.thinking is not None:
            blocks.append(
                {"type": "thinking", "thinking": answer.thinking, "signature": answer.signature}
            )
        if answer.text:
            blocks.append({"type": "text", "text": answer.text})
        for index, tool in enumerate(answer.tool_calls):
            tool_id = call.call_id(tool, index, "toolu")
            blocks.append(
                {"type": "tool_use", "id": tool_id, "name": tool.name, "input": tool.arguments}
            )
        return blocks

    def _message(self, answer: Answer, call: Call) -> dict[str, Any]:
        return {
            "id": f"msg_{call.key}",
            "type": "message",
            "role": "assistant",
            "model": answer.model or call.model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {
                "input_tokens": answer.prompt_tokens - answer.cached_tokens,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": answer.cached_tokens,
                "output_tokens": answer.completion_tokens,
            },
        }

    def plain(self, answer: Answer, call: Call) -> dict[str, Any]:
        message = self._message(answer, call)
        message["content"] = self._blocks(answer, call)
        message["stop_reason"] = self._STOP[answer.finish_reason]
        return message

    def frames(self, answer: Answer, call: Call) -> Iterator[Frame]:
        start = self._message(answer, call)
        start["usage"] = {**start["usage"], "output_tokens": 1}
        yield sse({"type": "message_start", "message": start}, "message_start")
        yield sse({"type": "ping"}, "ping")
        for index, block in enumerate(self._blocks(answer, call)):
            yield from self._block_frames(index, block, answer.chunk_size)
        delta = {"stop_reason": self._STOP[answer.finish_reason], "stop_sequence": None}
        usage = {"output_tokens": answer.completion_tokens}
        yield sse({"type": "message_delta", "delta": delta, "usage": usage}, "message_delta")
        yield sse({"type": "message_stop"}, "message_stop", terminal=True)

    def _block_frames(self, index: int, block: dict[str, Any], size: int) -> Iterator[Frame]:
        kind = block["type"]
        if kind == "thinking":
            opening: dict[str, Any] = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [
                {"type": "thinking_delta", "thinking": p} for p in split_text(block[kind], size)
            ]
            if block.get("signature"):
                deltas.append({"type": "signature_delta", "signature": block["signature"]})
        elif kind == "text":
            opening = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": p} for p in split_text(block["text"], size)]
        else:
            opening = {**block, "input": {}}
            text = orjson.dumps(block["input"]).decode()
            deltas = [
                {"type": "input_json_delta", "partial_json": p} for p in split_text(text, size)
            ]
        start = {"type": "content_block_start", "index": index, "content_block": opening}
        yield sse(start, "content_block_start")
        for delta in deltas:
            body = {"type": "content_block_delta", "index": index, "delta": delta}
            yield sse(body, "content_block_delta")
        yield sse({"type": "content_block_stop", "index": index}, "content_block_stop")

    def error_frame(self, error_type: str, message: str) -> Frame:
        return sse({"type": "error", "error": {"type": error_type, "message": message}}, "error")

    def error_body(self, status: int, error_type: str, message: str) -> dict[str, Any]:
        return {"type": "error", "error": {"type": error_type, "message": message}}

"""OpenAI Responses on the wire: a ``response`` and its typed SSE events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fakes.wire.answers import CREATED, Answer, Call, Frame, arguments_json, split_text, sse


class OpenAIResponsesWire:
    """A ``response`` object, and its typed SSE events ending with ``response.completed``."""

    content_type = "text/event-stream"

    def _items(self, answer: Answer, call: Call) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        if answer.thinking is not None:
            reasoning: dict[str, Any] = {
                "type": "reasoning",
                "id": f"rs_{call.key}",
                "summary": [{"type": "summary_text", "text": answer.thinking}],
            }
            if answer.signature is not None:
                reasoning["encrypted_content"] = answer.signature
            items.append(reasoning)
        if answer.text:
            text = {"type": "output_text", "text": answer.text, "annotations": []}
            items.append(
                {
                    "type": "message",
                    "id": f"msg_{call.key}",
                    "status": "completed",
                    "role": "assistant",
                    "content": [text],
                }
            )
        for index, tool in enumerate(answer.tool_calls):
            items.append(
                {
                    "type": "function_call",
                    "id": f"fc_{call.key}_{index}",
                    "call_id": call.call_id(tool, index),
                    "name": tool.name,
                    "arguments": arguments_json(tool),
                    "status": "completed",
                }
            )
        return items

    def _response(self, answer: Answer, call: Call, status: str) -> dict[str, Any]:
        return {
            "id": f"resp_{call.key}",
            "object": "response",
            "created_at": CREATED,
            "status": status,
            "model": answer.model or call.model,
            "output": [],
            "incomplete_details": None,
            "error": None,
            "tools": [],
            "tool_choice": "auto",
            "parallel_tool_calls": True,
            "usage": None,
        }

    def _final_status(self, answer: Answer) -> tuple[str, dict[str, Any] | None]:
        reason = {"length": "max_output_tokens", "content_filter": "content_filter"}
        if answer.finish_reason in reason:
            return "incomplete", {"reason": reason[answer.finish_reason]}
        return "completed", None

    def plain(self, answer: Answer, call: Call) -> dict[str, Any]:
        status, incomplete = self._final_status(answer)
        body = self._response(answer, call, status)
        body["output"] = self._items(answer, call)
        body["incomplete_details"] = incomplete
        body["usage"] = {
            "input_tokens": answer.prompt_tokens,
            "input_tokens_details": {
                "cached_tokens": answer.cached_tokens,
                "cache_write_tokens": 0,
            },
            "output_tokens": answer.completion_tokens,
            "output_tokens_details": {"reasoning_tokens": answer.reasoning_tokens},
            "total_tokens": answer.prompt_tokens + answer.completion_tokens,
        }
        return body

    def frames(self, answer: Answer, call: Call) -> Iterator[Frame]:
        counter = iter(range(1_000_000))

        def event(kind: str, terminal: bool = False, **fields: Any) -> Frame:
            body = {"type": kind, "sequence_number": next(counter), **fields}
            return sse(body, kind, terminal=terminal)

        yield event("response.created", response=self._response(answer, call, "in_progress"))
        yield event("response.in_progress", response=self._response(answer, call, "in_progress"))
        for index, item in enumerate(self._items(answer, call)):
            yield from self._item_frames(index, item, answer.chunk_size, event)
        final = self.plain(answer, call)
        kind = "response.completed" if final["status"] == "completed" else "response.incomplete"
        yield event(kind, terminal=True, response=final)

    def _item_frames(
        self, index: int, item: dict[str, Any], size: int, event: Any
    ) -> Iterator[Frame]:
        kind, item_id = item["type"], item["id"]
        opening = {**item, "status": "in_progress"} if "status" in item else dict(item)
        if kind == "message":
            opening["content"] = []
        elif kind == "function_call":
            opening["arguments"] = ""
        elif kind == "reasoning":
            opening["summary"] = []
        yield event("response.output_item.added", output_index=index, item=opening)
        where = {"item_id": item_id, "output_index": index}
        if kind == "message":
            text = item["content"][0]["text"]
            part = {"type": "output_text", "text": "", "annotations": []}
            yield event("response.content_part.added", **where, content_index=0, part=part)
            for piece in split_text(text, size):
                yield event(
                    "response.output_text.delta", **where, content_index=0, delta=piece, logprobs=[]
                )
            yield event(
                "response.output_text.done", **where, content_index=0, text=text, logprobs=[]
            )
            part_done = item["content"][0]
            yield event("response.content_part.done", **where, content_index=0, part=part_done)
        elif kind == "function_call":
            for piece in split_text(item["arguments"], size):
                yield event("response.function_call_arguments.delta", **where, delta=piece)
            arguments = item["arguments"]
            yield event("response.function_call_arguments.done", **where, arguments=arguments)
        elif kind == "reasoning":
            text = item["summary"][0]["text"]
            for piece in split_text(text, size):
                yield event(
                    "response.reasoning_summary_text.delta", **where, summary_index=0, delta=piece
                )
            yield event("response.reasoning_summary_text.done", **where, summary_index=0, text=text)
        yield event("response.output_item.done", output_index=index, item=item)

    def error_frame(self, error_type: str, message: str) -> Frame:
        body = {"type": "error", "code": error_type, "message": message, "param": None}
        return sse(body, "error")

    def error_body(self, status: int, error_type: str, message: str) -> dict[str, Any]:
        return {"error": {"message": message, "type": error_type, "param": None, "code": None}}

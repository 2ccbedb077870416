"""Scripted answers, written in each provider's real wire format (plain JSON and stream).

:class:`Answer` says what the fake model answers (text, tool calls, thinking with its
signature, usage, finish reason); each ``Wire`` class writes it the way its provider does,
as one JSON body or as the frames of a stream. A streamed answer and a plain one to the same
request carry the same ids and values, as the real providers' would, so a client that
reassembles streams correctly gets equal results from both.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
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


def _arguments(call: ToolCall) -> str:
    return orjson.dumps(call.arguments).decode()


def _split(text: str, size: int) -> list[str]:
    size = max(size, 1)
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


# --------------------------------------------------------------------------- OpenAI Chat


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
                "function": {"name": tool.name, "arguments": _arguments(tool)},
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
            for piece in _split(tool["function"]["arguments"], answer.chunk_size):
                yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        yield chunk({}, self._FINISH[answer.finish_reason])
        if call.include_usage:
            yield sse({**top, "choices": [], "usage": self._usage(answer)})
        yield sse("[DONE]", terminal=True)

    def error_frame(self, error_type: str, message: str) -> Frame:
        return sse({"error": {"message": message, "type": error_type, "param": None, "code": None}})

    def error_body(self, status: int, error_type: str, message: str) -> dict[str, Any]:
        return {"error": {"message": message, "type": error_type, "param": None, "code": None}}


# --------------------------------------------------------------------------- Anthropic


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
            deltas = [{"type": "thinking_delta", "thinking": p} for p in _split(block[kind], size)]
            if block.get("signature"):
                deltas.append({"type": "signature_delta", "signature": block["signature"]})
        elif kind == "text":
            opening = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": p} for p in _split(block["text"], size)]
        else:
            opening = {**block, "input": {}}
            text = orjson.dumps(block["input"]).decode()
            deltas = [{"type": "input_json_delta", "partial_json": p} for p in _split(text, size)]
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


# --------------------------------------------------------------------------- Gemini


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


# --------------------------------------------------------------------------- Ollama


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


# --------------------------------------------------------------------------- OpenAI Responses


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
                    "arguments": _arguments(tool),
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
            for piece in _split(text, size):
                yield event(
                    "response.output_text.delta", **where, content_index=0, delta=piece, logprobs=[]
                )
            yield event(
                "response.output_text.done", **where, content_index=0, text=text, logprobs=[]
            )
            part_done = item["content"][0]
            yield event("response.content_part.done", **where, content_index=0, part=part_done)
        elif kind == "function_call":
            for piece in _split(item["arguments"], size):
                yield event("response.function_call_arguments.delta", **where, delta=piece)
            arguments = item["arguments"]
            yield event("response.function_call_arguments.done", **where, arguments=arguments)
        elif kind == "reasoning":
            text = item["summary"][0]["text"]
            for piece in _split(text, size):
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


WIRES: dict[str, Any] = {
    "openai-responses": OpenAIResponsesWire(),
    "openai-chat": OpenAIChatWire(),
    "anthropic": AnthropicWire(),
    "gemini": GeminiWire(),
    "ollama": OllamaWire(),
}

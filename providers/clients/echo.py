"""``echo``: an offline provider that answers deterministically, for demos and tests.

The same request always gets the same answer, byte for byte:

* after a user turn, when tools are offered (and ``tool_choice`` is not ``none``): a call of
  the first tool (or the one ``tool_choice`` names) with arguments made up from its JSON
  Schema (``enum``/``const``/``default`` first, then a value of the declared type);
* after tool results: text summarising them (``Tool results: get_weather -> {...}``);
* otherwise: ``Echo: <last user text> [<hash>]``, the hash being that of the whole request,
  so two different conversations ending with the same words get different answers.

Usage counts words (prompt: every text, argument and result of the request plus 3 a
message; completion: the answer's words), ``max_tokens`` cuts the answer with finish
reason ``length``, and ``model`` is the model asked for. With ``config.stream`` the answer
also goes out as UMF stream chunks, a word at a time.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

import orjson

from providers import formats
from providers.clients._prepare import request_conversation
from providers.clients._stream import ChunkEmitter
from providers.clients.base import ChunkCallback, Exchange, ProviderConfig
from providers.clients.limits import clamp_request
from providers.umf import (
    JSON,
    Conversation,
    FinishReason,
    Message,
    Metadata,
    Provenance,
    Response,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolResultBlock,
    ToolUseBlock,
    Usage,
    extract_text,
    main_path,
)

_MESSAGE_OVERHEAD = 3
_SUMMARY_LIMIT = 200
_SCHEMA_DEPTH = 6


class EchoClient:
    """The offline, deterministic provider (see the module docstring)."""

    kind = "echo"

    def __init__(self, config: ProviderConfig) -> None:
        self.config = config

    def complete(
        self,
        conversation: Conversation,
        *,
        model: str,
        parameters: dict[str, Any] | None = None,
        on_chunk: ChunkCallback | None = None,
    ) -> Exchange:
        """Answer ``conversation`` without any network; ``Exchange.request`` is the UMF
        request as JSON (what a real client would have rendered from)."""
        started = time.perf_counter()
        request = request_conversation(conversation, model=model, parameters=parameters)
        response = answer(request, model=model, backend=self.config.name)
        if self.config.stream:
            _stream(response, ChunkEmitter(on_chunk))
        payload = formats.get("umf").render(request).payload
        clamped = clamp_request(
            "umf", payload, max_tokens=self.config.max_tokens, max_n=self.config.max_n
        )
        return Exchange(
            url=f"echo://{self.config.name}",
            request=payload,
            headers={},
            response=response,
            raw_response=response.model_dump(mode="json", exclude_none=True),
            latency_ms=(time.perf_counter() - started) * 1000.0,
            warnings=clamped,
        )


def answer(request: Conversation, *, model: str, backend: str = "echo") -> Response:
    """The echo provider's answer to ``request`` (pure: same request, same answer)."""
    thread = main_path(request)
    digest = _digest(request, model)
    last = thread[-1] if thread else None
    results = _tool_results(last)
    tool = _tool_to_call(request, last)
    content: list[TextBlock | ToolUseBlock]
    if results:
        content = [TextBlock(text=_summary(results, thread))]
    elif tool is not None:
        arguments = example_value(tool.parameters or {"type": "object"}, tool.name, 0)
        content = [ToolUseBlock(id=f"call_echo_{digest[:12]}", name=tool.name, input=arguments)]
    else:
        content = [TextBlock(text=f"Echo: {_last_user_text(thread)} [{digest[:8]}]")]
    finish: FinishReason = "tool_calls" if tool is not None else "stop"
    content, finish = _limit(content, finish, request.parameters.max_tokens)
    usage = _usage(thread, content)
    message = Message(
        role="assistant",
        content=list(content),
        id=f"echo-{digest[:16]}",
        model=model,
        finish_reason=finish,
        provider_finish_reason=finish,
        usage=usage,
    )
    return Response(
        message=message,
        finish_reason=finish,
        provider_finish_reason=finish,
        usage=usage,
        metadata=Metadata(
            provider_response_id=message.id, provenance=Provenance(backend=backend, model=model)
        ),
    )


def _digest(request: Conversation, model: str) -> str:
    umf = formats.get("umf").render(request).payload
    canonical = orjson.dumps([model, umf], option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(canonical).hexdigest()


def _tool_results(last: Message | None) -> list[ToolResultBlock]:
    """The tool results the request ends with (a tool message, or a user message holding
    them as Anthropic puts them)."""
    if last is None or last.role not in ("tool", "user"):
        return []
    return [block for block in last.content if isinstance(block, ToolResultBlock)]


def _tool_to_call(request: Conversation, last: Message | None) -> Tool | None:
    if not request.tools or last is None or last.role != "user" or _tool_results(last):
        return None
    choice = request.tool_choice
    if choice is not None and choice.type == "none":
        return None
    if choice is not None and choice.type == "tool" and choice.name:
        named = [tool for tool in request.tools if tool.name == choice.name]
        return named[0] if named else request.tools[0]
    return request.tools[0]


def _last_user_text(thread: list[Message]) -> str:
    for message in reversed(thread):
        if message.role == "user":
            return extract_text(message).strip() or "(no text)"
    return "(no user message)"


def _summary(results: list[ToolResultBlock], thread: list[Message]) -> str:
    names = {
        block.id: block.name
        for message in thread
        for block in message.content
        if isinstance(block, ToolUseBlock)
    }
    parts = []
    for block in results:
        name = block.name or names.get(block.tool_use_id) or block.tool_use_id
        text = _result_text(block)
        if len(text) > _SUMMARY_LIMIT:
            text = text[:_SUMMARY_LIMIT] + "..."
        parts.append(f"{name} {'failed' if block.is_error else '->'} {text}")
    return "Tool results: " + "; ".join(parts)


def _result_text(block: ToolResultBlock) -> str:
    if isinstance(block.content, str):
        return block.content
    return " ".join(part.text for part in block.content if isinstance(part, TextBlock))


def example_value(schema: JSON, name: str, depth: int) -> JSON:
    """A value that fits the JSON Schema ``schema`` (deterministic, shallow past a depth)."""
    if not isinstance(schema, dict):
        return f"example {name}"
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            return example_value(options[0], name, depth)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((option for option in kind if option != "null"), "null")
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties")
        if depth >= _SCHEMA_DEPTH or not isinstance(properties, dict):
            return {}
        return {key: example_value(sub, key, depth + 1) for key, sub in properties.items()}
    if kind == "array":
        items = schema.get("items")
        return [example_value(items, name, depth + 1)] if depth < _SCHEMA_DEPTH and items else []
    return _scalar(kind, schema, name)


def _scalar(kind: Any, schema: dict[str, Any], name: str) -> JSON:
    if kind == "integer":
        minimum = schema.get("minimum")
        return int(minimum) if isinstance(minimum, int | float) else 1
    if kind == "number":
        minimum = schema.get("minimum")
        return float(minimum) if isinstance(minimum, int | float) else 1.0
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return f"example {name}"


def _limit(
    content: list[TextBlock | ToolUseBlock], finish: FinishReason, max_tokens: int | None
) -> tuple[list[TextBlock | ToolUseBlock], FinishReason]:
    """Cut a text answer to ``max_tokens`` words, as a provider stops at its limit."""
    if max_tokens is None or max_tokens < 1 or not isinstance(content[0], TextBlock):
        return content, finish
    words = content[0].text.split(" ")
    if len(words) <= max_tokens:
        return content, finish
    return [TextBlock(text=" ".join(words[:max_tokens]))], "length"


def _usage(thread: list[Message], content: list[TextBlock | ToolUseBlock]) -> Usage:
    prompt = sum(_message_words(message) + _MESSAGE_OVERHEAD for message in thread)
    completion = sum(_block_words(block) for block in content)
    total = prompt + completion
    return Usage(prompt_tokens=prompt, completion_tokens=completion, total_tokens=total)


def _message_words(message: Message) -> int:
    return sum(_block_words(block) for block in message.content)


def _block_words(block: Any) -> int:
    if isinstance(block, TextBlock | ThinkingBlock):
        return len(block.text.split())
    if isinstance(block, ToolUseBlock):
        return len(orjson.dumps(block.input).decode().split()) + 1
    if isinstance(block, ToolResultBlock):
        return len(_result_text(block).split()) + 1
    return 1


def _stream(response: Response, emitter: ChunkEmitter) -> None:
    emitter.start(response_id=response.message.id)
    for block in response.message.content:
        if isinstance(block, TextBlock):
            words = block.text.split(" ")
            for index, word in enumerate(words):
                emitter.text(word if index == len(words) - 1 else word + " ")
        elif isinstance(block, ToolUseBlock):
            emitter.tool_use(block.id, block.name)
            emitter.tool_use(block.id, block.name, orjson.dumps(block.input).decode())
    emitter.finish(response)

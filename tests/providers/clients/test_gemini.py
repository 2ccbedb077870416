"""The ``gemini`` client: the model in the URL, the key in a header, thought signatures kept
on their part, and the stream reader's joining rules (fed directly)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from fakes.provider_server import Answer, FakeProviderServer, ToolCall
from providers import umf
from providers.clients import PermanentProviderError, TransientProviderError
from providers.clients._stream import ChunkEmitter
from providers.clients.gemini import GenerateContentStream
from tests.providers.clients.conftest import ClientFactory
from tests.providers.clients.support import API_KEY, question

STREAMING = pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])


@STREAMING
def test_model_goes_in_the_url_and_the_key_in_a_header(
    stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    exchange = make_client("gemini", stream=stream).complete(question(), model="models/gem-2")
    (request,) = server.requests
    method = "streamGenerateContent" if stream else "generateContent"
    assert request.path == f"/v1beta/models/gem-2:{method}"
    assert request.query == ({"alt": ["sse"]} if stream else {})
    assert request.headers["x-goog-api-key"] == API_KEY
    assert API_KEY not in exchange.url
    assert "model" not in request.json and "stream" not in request.json
    assert exchange.warnings == []  # the model in the URL is no loss


@STREAMING
def test_thoughts_and_signatures(
    stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(
        Answer(
            text="",
            thinking="Need the weather tool.",
            signature="c2ln",
            tool_calls=(ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {})),
            reasoning_tokens=5,
        )
    )
    response = make_client("gemini", stream=stream).complete(question(), model="g").response
    thought, first, second = response.message.content
    assert isinstance(thought, umf.ThinkingBlock) and thought.text == "Need the weather tool."
    assert isinstance(first, umf.ToolUseBlock) and isinstance(second, umf.ToolUseBlock)
    assert first.extra["gemini"]["thoughtSignature"] == "c2ln"
    assert "gemini" not in second.extra
    assert response.finish_reason == "tool_calls"  # STOP with calls
    assert response.usage is not None and response.usage.reasoning_tokens == 5


# --------------------------------------------------------------------------- the stream reader


def chunk(*parts: dict[str, Any], finish: str | None = None, **top: Any) -> str:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    return orjson.dumps({"candidates": [candidate], **top}).decode()


def read(*data: str) -> tuple[GenerateContentStream, list[umf.StreamChunk]]:
    chunks: list[umf.StreamChunk] = []
    reader = GenerateContentStream(ChunkEmitter(chunks.append))
    for item in data:
        reader.feed("message", item)
    return reader, chunks


def parts(reader: GenerateContentStream) -> Any:
    return reader.payload()["candidates"][0]["content"]["parts"]


def test_reader_joins_text_until_a_signature_closes_it() -> None:
    reader, chunks = read(
        chunk({"text": "Thinking ", "thought": True}),
        chunk({"text": "more", "thought": True}),
        chunk({"text": "Hel"}),
        chunk({"text": "lo"}),
        chunk({"text": "", "thoughtSignature": "sig"}),
        chunk({"text": "After"}, finish="STOP", usageMetadata={"totalTokenCount": 3}),
    )
    assert reader.finished
    assert parts(reader) == [
        {"text": "Thinking more", "thought": True},
        {"text": "Hello", "thoughtSignature": "sig"},
        {"text": "After"},
    ]
    assert reader.payload()["usageMetadata"] == {"totalTokenCount": 3}
    texts = [c.delta for c in chunks if isinstance(c, umf.StreamContent)]
    assert texts == ["Hel", "lo", "After"]


def test_reader_keeps_function_calls_whole_and_apart() -> None:
    call = {"functionCall": {"name": "f", "args": {"a": 1}}, "thoughtSignature": "s"}
    reader, chunks = read(chunk({"text": "x"}), chunk(call, {"functionCall": {"name": "g"}}))
    assert parts(reader) == [{"text": "x"}, call, {"functionCall": {"name": "g"}}]
    assert not reader.finished  # no finishReason yet
    tools = [(c.id, c.name, c.input_delta) for c in chunks if isinstance(c, umf.StreamToolUse)]
    assert tools == [("call_1", "f", None), ("call_1", "f", '{"a":1}'), ("call_2", "g", None)]


def test_reader_finishes_on_a_blocked_prompt() -> None:
    blocked = orjson.dumps({"promptFeedback": {"blockReason": "SAFETY"}}).decode()
    reader, _ = read(blocked)
    assert reader.finished
    assert reader.payload() == {"promptFeedback": {"blockReason": "SAFETY"}}


@pytest.mark.parametrize(
    ("error", "error_class"),
    [
        ({"code": 503, "status": "UNAVAILABLE", "message": "busy"}, TransientProviderError),
        ({"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "slow"}, TransientProviderError),
        ({"code": 400, "status": "INVALID_ARGUMENT", "message": "bad"}, PermanentProviderError),
    ],
)
def test_reader_classifies_errors(error: dict[str, Any], error_class: type[Exception]) -> None:
    with pytest.raises(error_class):
        read(chunk({"text": "x"}), orjson.dumps({"error": error}).decode())

"""The ``openai-chat`` client: endpoint and streaming flags for OpenAI-compatible servers, and
the stream reader's joining of chunks (fed directly, for what the fake never sends)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from fakes.provider_server import FakeProviderServer
from providers import umf
from providers.clients import PermanentProviderError, TransientProviderError, build
from providers.clients._stream import ChunkEmitter
from providers.clients.base import ProviderConfig
from providers.clients.openai_chat import ChatCompletionStream
from tests.providers.clients.conftest import ClientFactory
from tests.providers.clients.support import question


def test_streaming_asks_for_usage_and_plain_does_not(
    server: FakeProviderServer, make_client: ClientFactory
) -> None:
    conversation = question()
    conversation.extra = {"openai-chat": {"stream_options": {"include_obfuscation": False}}}
    make_client("openai-chat", stream=True).complete(conversation, model="m")
    make_client("openai-chat").complete(conversation, model="m")
    streamed, plain = (request.json for request in server.requests)
    assert streamed["stream"] is True
    assert streamed["stream_options"] == {"include_obfuscation": False, "include_usage": True}
    assert "stream" not in plain
    assert "stream_options" not in plain


def test_a_local_server_without_a_key_gets_no_authorization(server: FakeProviderServer) -> None:
    server.api_key = None
    config = ProviderConfig(
        allow_private_network=True,
        name="vllm",
        kind="openai-chat",
        base_url=server.base_url("openai-chat") + "/",
    )
    exchange = build(config).complete(question(), model="llama")
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert "authorization" not in request.headers
    assert "authorization" not in exchange.headers


def test_a_base_url_without_scheme_means_http(server: FakeProviderServer) -> None:
    server.api_key = None
    bare = server.base_url("openai-chat").removeprefix("http://")
    config = ProviderConfig(
        allow_private_network=True, name="lm-studio", kind="openai-chat", base_url=bare
    )
    assert build(config).complete(question(), model="m").url.startswith("http://127.0.0.1:")


def test_an_invalid_parameter_is_permanent(make_client: ClientFactory) -> None:
    with pytest.raises(PermanentProviderError) as caught:
        make_client("openai-chat").complete(
            question(), model="m", parameters={"temperature": "hot"}
        )
    assert "temperature" in caught.value.message


def test_parameters_umf_has_no_name_for_are_sent_as_the_providers_own(
    server: FakeProviderServer, make_client: ClientFactory
) -> None:
    exchange = make_client("openai-chat").complete(
        question(), model="m", parameters={"temperature": 0.5, "reasoning_effort": "low"}
    )
    assert exchange.request["temperature"] == 0.5
    assert exchange.request["reasoning_effort"] == "low"
    assert exchange.warnings == []
    assert server.requests[0].json == exchange.request


# --------------------------------------------------------------------------- the stream reader


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **top: Any) -> str:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return orjson.dumps({"id": "c1", "model": "m", "choices": choices, **top}).decode()


def read(*data: str) -> tuple[ChatCompletionStream, list[umf.StreamChunk]]:
    chunks: list[umf.StreamChunk] = []
    reader = ChatCompletionStream(ChunkEmitter(chunks.append))
    for item in data:
        reader.feed("message", item)
    return reader, chunks


def fragment(index: int, **fields: Any) -> dict[str, Any]:
    return {"tool_calls": [{"index": index, **fields}]}


def test_reader_joins_interleaved_tool_fragments_by_index() -> None:
    reader, chunks = read(
        chunk({"role": "assistant", "content": None}),
        chunk(
            fragment(0, id="call_a", type="function", function={"name": "get_", "arguments": ""})
        ),
        chunk(fragment(1, id="call_b", type="function", function={"name": "f", "arguments": "{"})),
        chunk(fragment(0, function={"name": "weather", "arguments": '{"city"'})),
        chunk(fragment(1, function={"arguments": "}"})),
        chunk(fragment(0, function={"arguments": ': "Paris"}'})),
        chunk({}, "tool_calls"),
        chunk(usage={"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}),
        "[DONE]",
    )
    assert reader.finished
    message = reader.payload()["choices"][0]["message"]
    assert message == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_a",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            },
            {"id": "call_b", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        ],
    }
    assert reader.payload()["usage"]["total_tokens"] == 3
    starts = [c for c in chunks if isinstance(c, umf.StreamToolUse) and c.input_delta is None]
    assert [(c.id, c.name) for c in starts] == [("call_a", "get_"), ("call_b", "f")]


def test_reader_keeps_vendor_text_fields_and_ignores_null_usage() -> None:
    reader, chunks = read(
        chunk({"role": "assistant", "reasoning_content": "think"}, usage=None),
        chunk({"reasoning_content": "ing", "content": "Hi"}, usage=None),
        chunk({"role": "assistant", "content": " there"}, usage=None),
        chunk({}, "stop", usage=None),
        "[DONE]",
    )
    response = reader.payload()
    assert response["choices"][0]["message"] == {
        "role": "assistant",
        "reasoning_content": "thinking",
        "content": "Hi there",
    }
    assert "usage" not in response
    assert [c.accumulated for c in chunks if isinstance(c, umf.StreamContent)] == [
        "Hi",
        "Hi there",
    ]


def test_reader_without_done_is_not_finished() -> None:
    reader, _ = read(chunk({"content": "Hi"}), chunk({}, "stop"))
    assert not reader.finished


def test_reader_classifies_an_error_in_the_stream() -> None:
    error = orjson.dumps({"error": {"type": "server_error", "message": "oops"}}).decode()
    with pytest.raises(TransientProviderError) as caught:
        read(chunk({"content": "Hi"}), error)
    assert caught.value.status == 500
    rate = orjson.dumps({"error": {"code": "rate_limit_exceeded", "message": "slow"}}).decode()
    with pytest.raises(TransientProviderError):
        read(rate)
    bad = orjson.dumps({"error": {"type": "invalid_request_error", "message": "no"}}).decode()
    with pytest.raises(PermanentProviderError):
        read(bad)


def test_reader_refuses_a_chunk_that_is_not_an_object() -> None:
    with pytest.raises(PermanentProviderError):
        read("[1, 2]")

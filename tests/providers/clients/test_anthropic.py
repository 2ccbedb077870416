"""The ``anthropic`` client: headers, thinking with its signature, and the stream reader's
handling of every event type (fed directly, for the cases the fake server never sends)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from fakes.provider_server import Answer, FakeProviderServer, ToolCall
from providers import umf
from providers.clients import PermanentProviderError, TransientProviderError
from providers.clients._stream import ChunkEmitter
from providers.clients.anthropic import API_VERSION, MessageStream
from tests.providers.clients.conftest import ClientFactory
from tests.providers.clients.support import question

STREAMING = pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])


@STREAMING
def test_thinking_comes_back_with_its_signature(
    stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(
        Answer(
            thinking="The user wants Paris weather; call the tool.",
            signature="EqQBCkgIARABGAIiQL0signature==",
            text="",
            tool_calls=(ToolCall("get_weather", {"city": "Paris"}),),
            chunk_size=6,
        )
    )
    message = (
        make_client("anthropic", stream=stream).complete(question(), model="m").response.message
    )
    thinking, call = message.content
    assert isinstance(thinking, umf.ThinkingBlock)
    assert thinking.text == "The user wants Paris weather; call the tool."
    assert thinking.signature == "EqQBCkgIARABGAIiQL0signature=="
    assert thinking.provider == "anthropic"
    assert isinstance(call, umf.ToolUseBlock)
    assert call.input == {"city": "Paris"}


@STREAMING
def test_sends_the_api_version_and_a_max_tokens(
    stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    exchange = make_client("anthropic", stream=stream).complete(question(), model="m")
    (request,) = server.requests
    assert request.headers["anthropic-version"] == API_VERSION == "2023-06-01"
    assert request.path == "/v1/messages"
    assert request.json["max_tokens"] > 0
    assert request.json["system"] == "Answer briefly."
    # The format filled max_tokens in: the exchange keeps its warning.
    assert [w.category for w in exchange.warnings] == ["parameter-defaulted"]
    assert ("stream" in request.json) is stream


def test_plain_requests_do_not_ask_for_a_stream(
    server: FakeProviderServer, make_client: ClientFactory
) -> None:
    conversation = question()
    conversation.parameters.stream = True  # as imported: the client's config decides
    make_client("anthropic").complete(conversation, model="m")
    assert "stream" not in server.requests[0].json


# --------------------------------------------------------------------------- the stream reader


def start(**usage: int) -> tuple[str, str]:
    message: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1, **usage},
    }
    return event("message_start", message=message)


def event(kind: str, **fields: Any) -> tuple[str, str]:
    return kind, orjson.dumps({"type": kind, **fields}).decode()


def read(*events: tuple[str, str]) -> tuple[MessageStream, list[umf.StreamChunk]]:
    chunks: list[umf.StreamChunk] = []
    reader = MessageStream(ChunkEmitter(chunks.append))
    for name, data in events:
        reader.feed(name, data)
    return reader, chunks


def block(index: int, content_block: dict[str, Any]) -> tuple[str, str]:
    return event("content_block_start", index=index, content_block=content_block)


def delta(index: int, **body: Any) -> tuple[str, str]:
    return event("content_block_delta", index=index, delta=body)


def stop(index: int) -> tuple[str, str]:
    return event("content_block_stop", index=index)


def test_reader_rebuilds_every_block_type_and_ignores_unknown_events() -> None:
    citation = {"type": "char_location", "cited_text": "x", "document_index": 0}
    reader, chunks = read(
        start(),
        ("ping", '{"type": "ping"}'),
        block(0, {"type": "redacted_thinking", "data": "opaque=="}),
        stop(0),
        block(1, {"type": "text", "text": ""}),
        delta(1, type="text_delta", text="Hel"),
        event("some_future_event", anything=1),
        delta(1, type="text_delta", text="lo"),
        delta(1, type="citations_delta", citation=citation),
        delta(1, type="a_future_delta", stuff=2),
        stop(1),
        block(2, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}),
        delta(2, type="input_json_delta", partial_json='{"a": '),
        delta(2, type="input_json_delta", partial_json="[1, 2]}"),
        stop(2),
        block(3, {"type": "tool_use", "id": "toolu_2", "name": "g", "input": {}}),
        stop(3),
        event("message_delta", delta={"stop_reason": "tool_use"}, usage={"output_tokens": 9}),
        event("message_stop"),
    )
    assert reader.finished
    assert reader.payload() == {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [
            {"type": "redacted_thinking", "data": "opaque=="},
            {"type": "text", "text": "Hello", "citations": [citation]},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": [1, 2]}},
            {"type": "tool_use", "id": "toolu_2", "name": "g", "input": {}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 9},
    }
    assert [chunk.type for chunk in chunks] == ["start", "content", "content"] + ["tool_use"] * 4


def test_reader_without_message_stop_is_not_finished() -> None:
    reader, _ = read(start(), block(0, {"type": "text", "text": ""}), stop(0))
    assert not reader.finished
    assert reader.last_event == "content_block_stop"


@pytest.mark.parametrize(
    ("error_type", "error_class", "status"),
    [
        ("overloaded_error", TransientProviderError, 529),
        ("api_error", TransientProviderError, 500),
        ("rate_limit_error", TransientProviderError, 429),
        ("a_new_error_type", TransientProviderError, 500),
        ("invalid_request_error", PermanentProviderError, 400),
        ("authentication_error", PermanentProviderError, 401),
    ],
)
def test_reader_classifies_error_events(
    error_type: str, error_class: type[Exception], status: int
) -> None:
    error = event("error", error={"type": error_type, "message": "boom"})
    with pytest.raises(error_class) as caught:
        read(start(), error)
    assert getattr(caught.value, "status", None) == status


def test_reader_refuses_broken_events() -> None:
    with pytest.raises(PermanentProviderError):
        read(start(), ("content_block_delta", "{not json"))
    with pytest.raises(PermanentProviderError):
        read(event("content_block_start", index=0, content_block={"type": "text"}))
    with pytest.raises(PermanentProviderError):
        read(
            start(),
            block(0, {"type": "tool_use", "id": "t", "name": "f", "input": {}}),
            delta(0, type="input_json_delta", partial_json='{"a": '),
            stop(0),
        )

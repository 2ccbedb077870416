"""The ``openai-responses`` client: endpoint, reasoning items, and the event reader (fed
directly, for the terminal and failure events the fake sends rarely)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from fakes.provider_server import Answer, FakeProviderServer, ToolCall
from providers import umf
from providers.clients import PermanentProviderError, TransientProviderError
from providers.clients._stream import ChunkEmitter
from providers.clients.openai_responses import ResponseEventStream
from tests.providers.clients.conftest import ClientFactory
from tests.providers.clients.support import question

STREAMING = pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])


@STREAMING
def test_reasoning_items_and_calls(
    stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(
        Answer(
            text="",
            thinking="Check the weather.",
            signature="gAAAAB-encrypted",
            tool_calls=(ToolCall("get_weather", {"city": "Paris"}),),
            reasoning_tokens=4,
        )
    )
    exchange = make_client("openai-responses", stream=stream).complete(question(), model="g")
    (request,) = server.requests
    assert request.path == "/v1/responses"
    thinking, call = exchange.response.message.content
    assert isinstance(thinking, umf.ThinkingBlock)
    assert (thinking.text, thinking.data) == ("Check the weather.", "gAAAAB-encrypted")
    assert isinstance(call, umf.ToolUseBlock) and call.input == {"city": "Paris"}
    assert exchange.response.finish_reason == "tool_calls"


def event(kind: str, **fields: Any) -> tuple[str, str]:
    return kind, orjson.dumps({"type": kind, **fields}).decode()


def read(*events: tuple[str, str]) -> tuple[ResponseEventStream, list[umf.StreamChunk]]:
    chunks: list[umf.StreamChunk] = []
    reader = ResponseEventStream(ChunkEmitter(chunks.append))
    for name, data in events:
        reader.feed(name, data)
    return reader, chunks


CALL = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": ""}


def test_reader_takes_the_final_response_and_follows_deltas() -> None:
    done_call = {**CALL, "arguments": '{"a":1}'}
    final = {"id": "resp_1", "status": "completed", "output": [done_call]}
    reader, chunks = read(
        event("response.created", response={"id": "resp_1", "output": []}),
        event("response.output_item.added", output_index=0, item=CALL),
        event("response.function_call_arguments.delta", item_id="fc_1", delta='{"a":'),
        event("response.web_search_call.searching", item_id="ws_1"),
        event("response.function_call_arguments.delta", item_id="fc_1", delta="1}"),
        event("response.output_item.done", output_index=0, item=done_call),
        event("response.completed", response=final),
    )
    assert reader.finished
    assert reader.payload() == final
    tools = [(c.id, c.input_delta) for c in chunks if isinstance(c, umf.StreamToolUse)]
    assert tools == [("call_1", None), ("call_1", '{"a":'), ("call_1", "1}")]


def test_reader_fills_a_final_response_without_output_from_the_done_items() -> None:
    message = {"type": "message", "role": "assistant", "content": []}
    reader, _ = read(
        event("response.output_item.done", output_index=0, item=message),
        event("response.incomplete", response={"id": "r", "status": "incomplete", "output": []}),
    )
    assert reader.finished
    assert reader.payload()["output"] == [message]


def test_reader_without_a_terminal_event_is_not_finished() -> None:
    reader, _ = read(event("response.created", response={"id": "r"}))
    assert not reader.finished


@pytest.mark.parametrize(
    ("code", "error_class"),
    [
        ("server_error", TransientProviderError),
        ("rate_limit_exceeded", TransientProviderError),
        ("invalid_prompt", PermanentProviderError),
    ],
)
def test_reader_classifies_failed_responses_and_error_events(
    code: str, error_class: type[Exception]
) -> None:
    failed = {"id": "r", "status": "failed", "error": {"code": code, "message": "x"}}
    with pytest.raises(error_class):
        read(event("response.failed", response=failed))
    with pytest.raises(error_class):
        read(event("error", code=code, message="x", param=None))

"""The ``ollama`` client: an explicit stream flag, thinking, whole tool calls, and the
NDJSON reader (fed directly)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from fakes.provider_server import Answer, FakeProviderServer, ToolCall
from providers import umf
from providers.clients import TransientProviderError, build
from providers.clients._stream import ChunkEmitter
from providers.clients.base import ProviderConfig
from providers.clients.ollama import ChatLineStream
from tests.providers.clients.conftest import ClientFactory
from tests.providers.clients.support import question

STREAMING = pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])


@STREAMING
def test_the_stream_flag_is_always_explicit(
    stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    make_client("ollama", stream=stream).complete(question(), model="qwen3")
    (request,) = server.requests
    assert request.path == "/api/chat"
    assert request.json["stream"] is stream
    assert request.stream is stream


def test_a_local_ollama_host_without_scheme_or_key(server: FakeProviderServer) -> None:
    server.api_key = None
    host = server.url.removeprefix("http://")
    exchange = build(
        ProviderConfig(allow_private_network=True, name="ollama", kind="ollama", base_url=host)
    ).complete(question(), model="qwen3")
    assert "authorization" not in server.requests[0].headers
    assert umf.extract_text(exchange.response.message) == Answer().text


@STREAMING
def test_thinking_and_tool_calls(
    stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(
        Answer(text="", thinking="Look it up.", tool_calls=(ToolCall("get_weather", {"c": 1}),))
    )
    response = make_client("ollama", stream=stream).complete(question(), model="q").response
    thinking, call = response.message.content
    assert isinstance(thinking, umf.ThinkingBlock) and thinking.text == "Look it up."
    assert thinking.signature is None
    assert isinstance(call, umf.ToolUseBlock) and call.input == {"c": 1}
    assert response.finish_reason == "tool_calls"  # Ollama says "stop"


# --------------------------------------------------------------------------- the stream reader


def line(message: dict[str, Any] | None = None, **fields: Any) -> str:
    body = {"model": "q", **({"message": message} if message else {}), **fields}
    return orjson.dumps(body).decode()


def read(*data: str) -> tuple[ChatLineStream, list[umf.StreamChunk]]:
    chunks: list[umf.StreamChunk] = []
    reader = ChatLineStream(ChunkEmitter(chunks.append))
    for item in data:
        reader.feed("line", item)
    return reader, chunks


def test_reader_joins_lines_and_keeps_the_final_fields() -> None:
    call = {"function": {"name": "f", "arguments": {"x": 1}}}
    reader, chunks = read(
        line({"role": "assistant", "content": "", "thinking": "hm"}, done=False),
        line({"role": "assistant", "content": "He", "thinking": "m"}, done=False),
        line({"role": "assistant", "content": "y", "tool_calls": [call]}, done=False),
        line({"role": "assistant", "content": ""}, done=True, done_reason="stop", eval_count=4),
    )
    assert reader.finished
    assert reader.payload() == {
        "model": "q",
        "message": {"role": "assistant", "content": "Hey", "thinking": "hmm", "tool_calls": [call]},
        "done": True,
        "done_reason": "stop",
        "eval_count": 4,
    }
    assert [c.type for c in chunks] == ["start", "content", "content", "tool_use", "tool_use"]


def test_reader_without_a_done_line_is_not_finished() -> None:
    reader, _ = read(line({"role": "assistant", "content": "x"}, done=False))
    assert not reader.finished


def test_reader_raises_on_an_error_line() -> None:
    with pytest.raises(TransientProviderError):
        read(line({"role": "assistant", "content": "x"}, done=False), '{"error": "runner died"}')

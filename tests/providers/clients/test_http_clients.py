"""What every HTTP client does the same way, run against each provider's fake: text, parallel
tool calls, usage, finish reasons, streamed == plain, keys only in their header, one request
per call, and the UMF stream chunks."""

from __future__ import annotations

import orjson
import pytest

from fakes.provider_server import Answer, FakeProviderServer, ToolCall
from providers import formats, umf
from tests.providers.clients.conftest import ClientFactory
from tests.providers.clients.support import API_KEY, HTTP_KINDS, question

KEY_HEADERS = {
    "openai-chat": ("authorization", f"Bearer {API_KEY}"),
    "openai-responses": ("authorization", f"Bearer {API_KEY}"),
    "anthropic": ("x-api-key", API_KEY),
    "gemini": ("x-goog-api-key", API_KEY),
    "ollama": ("authorization", f"Bearer {API_KEY}"),
}
PARALLEL = (
    ToolCall("get_weather", {"city": "Paris"}),
    ToolCall("get_weather", {"city": "Rome", "units": {"metric": True}}),
)
MAX_TOKENS_KEYS: tuple[str, ...] = ("max_tokens", "max_completion_tokens", "max_output_tokens")
MAX_TOKENS_KEYS += ("maxOutputTokens", "num_predict")
STOP_KEYS = ("stop", "stop_sequences", "stopSequences")
STREAMING = pytest.mark.parametrize("stream", [False, True], ids=["plain", "stream"])
KINDS = pytest.mark.parametrize("kind", HTTP_KINDS)


@KINDS
@STREAMING
def test_text_answer(
    kind: str, stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Answer(text="Sunny and 18 degrees in Paris today.", chunk_size=5))
    exchange = make_client(kind, stream=stream).complete(question(), model="model-a")
    response = exchange.response
    assert umf.extract_text(response.message) == "Sunny and 18 degrees in Paris today."
    assert response.message.role == "assistant"
    assert response.finish_reason == "stop"
    assert response.message.model == "model-a"
    assert response.metadata.provider_response_id == response.message.id
    assert (response.message.id is None) is (kind == "ollama")  # Ollama answers carry no id


@KINDS
@STREAMING
def test_parallel_tool_calls(
    kind: str, stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Answer(text="", tool_calls=PARALLEL, chunk_size=3))
    exchange = make_client(kind, stream=stream).complete(question(tools=True), model="model-a")
    calls = umf.extract_tool_calls(exchange.response.message)
    assert [(call.name, call.input) for call in calls] == [
        ("get_weather", {"city": "Paris"}),
        ("get_weather", {"city": "Rome", "units": {"metric": True}}),
    ]
    assert len({call.id for call in calls}) == 2
    assert exchange.response.finish_reason == "tool_calls"


@KINDS
@STREAMING
def test_usage_is_normalised(
    kind: str, stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Answer(prompt_tokens=120, completion_tokens=30, cached_tokens=100))
    usage = make_client(kind, stream=stream).complete(question(), model="m").response.usage
    assert usage is not None
    assert (usage.prompt_tokens, usage.completion_tokens, usage.total_tokens) == (120, 30, 150)
    assert usage.cached_tokens == (None if kind == "ollama" else 100)  # Ollama has no count
    assert usage.raw is not None


@KINDS
@STREAMING
@pytest.mark.parametrize("finish", ["stop", "length", "content_filter"])
def test_finish_reasons(
    kind: str, stream: bool, finish: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    if kind == "ollama" and finish == "content_filter":
        pytest.skip("Ollama has no content filter finish reason")
    server.script(Answer(finish=finish))  # type: ignore[arg-type]
    response = make_client(kind, stream=stream).complete(question(), model="m").response
    assert response.finish_reason == finish
    assert response.provider_finish_reason is not None


@KINDS
@pytest.mark.parametrize(
    "answer",
    [
        Answer(text="Just text, streamed in many small pieces.", chunk_size=2),
        Answer(text="Let me check.", tool_calls=PARALLEL, cached_tokens=4, reasoning_tokens=3),
        Answer(text="", tool_calls=PARALLEL[:1], finish="length"),
        Answer(
            text="Calling.",
            thinking="Weather needs a tool call.",
            signature="c2lnbmF0dXJl",
            tool_calls=PARALLEL,
            chunk_size=3,
        ),
    ],
    ids=["text", "text-and-tools", "tool-only", "thinking"],
)
def test_streamed_answer_equals_plain_answer(
    kind: str, answer: Answer, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(answer, answer)
    conversation = question(tools=True)
    plain = make_client(kind).complete(conversation, model="m")
    streamed = make_client(kind, stream=True).complete(conversation, model="m")
    assert streamed.response == plain.response
    assert streamed.raw_response == plain.raw_response


@KINDS
@STREAMING
def test_key_travels_only_in_its_header(
    kind: str, stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    exchange = make_client(kind, stream=stream).complete(question(), model="m")
    (request,) = server.requests
    header, value = KEY_HEADERS[kind]
    assert request.headers[header] == value
    assert API_KEY.encode() not in request.body
    assert API_KEY not in orjson.dumps(exchange.request).decode()
    assert API_KEY not in orjson.dumps(exchange.headers).decode()
    assert exchange.headers[header] == "[redacted]"
    assert API_KEY not in exchange.url


@KINDS
@STREAMING
def test_one_call_sends_exactly_one_request_with_the_rendered_body(
    kind: str, stream: bool, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    exchange = make_client(kind, stream=stream).complete(question(), model="model-b")
    (request,) = server.requests
    assert request.json == exchange.request
    assert request.stream is stream
    assert request.model == "model-b"
    assert exchange.url.startswith(server.url)
    assert exchange.latency_ms > 0


@KINDS
def test_wrong_key_is_refused(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.api_key = "another-key"
    from providers.clients import PermanentProviderError

    with pytest.raises(PermanentProviderError) as caught:
        make_client(kind).complete(question(), model="m")
    assert caught.value.status == 401


@KINDS
def test_stream_chunks_arrive_in_order_and_end_with_the_response(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    server.script(Answer(text="one two three four", tool_calls=PARALLEL, chunk_size=4))
    chunks: list[umf.StreamChunk] = []
    exchange = make_client(kind, stream=True).complete(
        question(tools=True), model="m", on_chunk=chunks.append
    )
    assert [chunk.sequence for chunk in chunks] == list(range(len(chunks)))
    assert chunks[0].type == "start"
    text = [chunk for chunk in chunks if isinstance(chunk, umf.StreamContent)]
    assert "".join(chunk.delta for chunk in text) == "one two three four"
    assert text[-1].accumulated == "one two three four"
    tool_chunks = [chunk for chunk in chunks if isinstance(chunk, umf.StreamToolUse)]
    calls = umf.extract_tool_calls(exchange.response.message)
    for call in calls:
        pieces = [c.input_delta or "" for c in tool_chunks if c.id == call.id]
        assert orjson.loads("".join(pieces)) == call.input
    metadata, done = chunks[-2:]
    assert isinstance(metadata, umf.StreamMetadata)
    assert metadata.usage == exchange.response.usage
    assert isinstance(done, umf.StreamDone)
    assert done.message == exchange.response.message
    assert done.finish_reason == "tool_calls"


@KINDS
def test_plain_calls_pass_no_chunks(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    chunks: list[umf.StreamChunk] = []
    make_client(kind).complete(question(), model="m", on_chunk=chunks.append)
    assert chunks == []


@KINDS
def test_parameters_override_the_conversation(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    conversation = question()
    conversation.parameters = umf.Parameters(model="old-model", max_tokens=10, stop=["x"])
    exchange = make_client(kind).complete(
        conversation, model="new-model", parameters={"max_tokens": 77, "stop": ["END"]}
    )
    request = server.requests[0]
    body = request.json
    assert request.model == "new-model"
    assert body.get("model", "new-model") == "new-model"  # Gemini names it in the URL only
    sampling = {**body, **body.get("generationConfig", {}), **body.get("options", {})}
    assert 77 in [sampling.get(key) for key in MAX_TOKENS_KEYS]
    if "stop" in formats.get(kind).capabilities.parameters:  # Responses has no stop
        assert ["END"] in [sampling.get(key) for key in STOP_KEYS]
    assert conversation.parameters.model == "old-model"  # the caller's copy is untouched
    assert exchange.request == body


@KINDS
def test_an_imported_exchange_is_sent_as_a_request(
    kind: str, server: FakeProviderServer, make_client: ClientFactory
) -> None:
    plain = make_client(kind).complete(question(), model="m")
    logged = {"request": plain.request, "response": plain.raw_response}
    conversation = formats.get(kind).parse(logged)[0].conversation
    conversation.messages = conversation.messages[:-1]  # replay the last turn
    server.reset()
    server.api_key = API_KEY
    again = make_client(kind).complete(conversation, model="m")
    assert again.request == plain.request

"""The offline ``echo`` provider: deterministic answers, tool calls from schemas, tool-result
summaries, usage, and the same Response shape as the HTTP clients."""

from __future__ import annotations

from typing import Any

import pytest

from providers import formats, umf
from providers.clients import build
from providers.clients.base import Client, ProviderConfig
from providers.clients.echo import example_value
from tests.providers.clients.support import question, weather_tools


def echo(*, stream: bool = False) -> Client:
    return build(
        ProviderConfig(
            allow_private_network=True, name="echo", kind="echo", base_url="", stream=stream
        )
    )


def test_answers_the_last_user_message_with_a_stable_hash() -> None:
    first = echo().complete(question("Hello there"), model="echo-1")
    again = echo().complete(question("Hello there"), model="echo-1")
    text = umf.extract_text(first.response.message)
    assert text.startswith("Echo: Hello there [")
    assert len(text.removeprefix("Echo: Hello there [").rstrip("]")) == 8
    assert first.response == again.response
    assert first.raw_response == again.raw_response
    assert first.request == again.request


def test_different_conversations_or_models_get_different_hashes() -> None:
    base = umf.extract_text(echo().complete(question("Hi"), model="echo-1").response.message)
    other_model = echo().complete(question("Hi"), model="echo-2").response.message
    longer = question("Hi")
    longer.messages.insert(1, umf.user("Earlier words"))
    other_history = echo().complete(longer, model="echo-1").response.message
    assert len({base, umf.extract_text(other_model), umf.extract_text(other_history)}) == 3


def test_response_shape_matches_the_http_clients() -> None:
    response = echo().complete(question("one two three"), model="echo-1").response
    message = response.message
    assert message.role == "assistant"
    assert message.model == "echo-1"
    assert response.finish_reason == message.finish_reason == "stop"
    assert response.usage == message.usage
    assert response.metadata.provider_response_id == message.id
    assert message.id is not None and message.id.startswith("echo-")
    # system "Answer briefly." (2 words) + user (3 words) + 3 per message; answer: 5 words.
    assert response.usage == umf.Usage(prompt_tokens=11, completion_tokens=5, total_tokens=16)


def test_exchange_request_is_the_umf_request() -> None:
    conversation = question("Hi")
    exchange = echo().complete(conversation, model="echo-1", parameters={"temperature": 0.2})
    (parsed,) = formats.get("umf").parse(exchange.request)
    assert parsed.conversation.messages == conversation.messages
    assert parsed.conversation.parameters.model == "echo-1"
    assert parsed.conversation.parameters.temperature == 0.2
    assert exchange.headers == {}
    assert exchange.url == "echo://echo"


def test_calls_the_first_tool_with_arguments_from_its_schema() -> None:
    response = echo().complete(question(tools=True), model="echo-1").response
    (call,) = umf.extract_tool_calls(response.message)
    assert call.name == "get_weather"
    assert call.input == {"city": "example city"}
    assert call.id.startswith("call_echo_")
    assert response.finish_reason == "tool_calls"
    assert response == echo().complete(question(tools=True), model="echo-1").response


def test_tool_choice_names_the_tool_or_forbids_calls() -> None:
    conversation = question(tools=True)
    conversation.tool_choice = umf.ToolChoice(type="tool", name="get_time")
    (call,) = umf.extract_tool_calls(echo().complete(conversation, model="e").response.message)
    assert (call.name, call.input) == ("get_time", {})
    conversation.tool_choice = umf.ToolChoice(type="none")
    message = echo().complete(conversation, model="e").response.message
    assert not umf.has_tool_calls(message)


def test_summarises_tool_results_from_a_tool_message() -> None:
    call = umf.ToolUseBlock(id="call_1", name="get_weather", input={"city": "Paris"})
    conversation = umf.Conversation(
        messages=[
            umf.user("Weather in Paris?"),
            umf.assistant("", tool_calls=[call]),
            umf.tool_result("call_1", None, '{"temp_c": 18}'),
        ],
        tools=weather_tools(),
    )
    response = echo().complete(conversation, model="e").response
    assert umf.extract_text(response.message) == 'Tool results: get_weather -> {"temp_c": 18}'
    assert response.finish_reason == "stop"


def test_summarises_anthropic_style_results_in_a_user_message() -> None:
    results: list[umf.Block] = [
        umf.ToolResultBlock(tool_use_id="t1", name="a", content=[umf.TextBlock(text="ok")]),
        umf.ToolResultBlock(tool_use_id="t2", name="b", content="timeout", is_error=True),
    ]
    conversation = umf.Conversation(messages=[umf.Message(role="user", content=results)])
    conversation.tools = weather_tools()
    text = umf.extract_text(echo().complete(conversation, model="e").response.message)
    assert text == "Tool results: a -> ok; b failed timeout"


def test_max_tokens_cuts_the_answer_with_finish_reason_length() -> None:
    response = echo().complete(question("a b c d e f"), model="e", parameters={"max_tokens": 3})
    assert response.response.finish_reason == "length"
    assert umf.extract_text(response.response.message) == "Echo: a b"
    assert response.response.usage is not None
    assert response.response.usage.completion_tokens == 3


def test_streams_chunks_that_rebuild_the_answer() -> None:
    chunks: list[umf.StreamChunk] = []
    exchange = echo(stream=True).complete(question("x y z"), model="e", on_chunk=chunks.append)
    text = "".join(c.delta for c in chunks if isinstance(c, umf.StreamContent))
    assert text == umf.extract_text(exchange.response.message)
    assert isinstance(chunks[-1], umf.StreamDone)
    assert chunks[-1].message == exchange.response.message
    assert [c.sequence for c in chunks] == list(range(len(chunks)))
    assert exchange.response == echo().complete(question("x y z"), model="e").response


def test_an_empty_conversation_still_gets_an_answer() -> None:
    text = umf.extract_text(echo().complete(umf.Conversation(), model="e").response.message)
    assert text.startswith("Echo: (no user message) [")


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string", "enum": ["celsius", "fahrenheit"]}, "celsius"),
        ({"type": "integer", "minimum": 5}, 5),
        ({"type": "number"}, 1.0),
        ({"type": "boolean"}, True),
        ({"type": ["null", "string"]}, "example x"),
        ({"const": 42}, 42),
        ({"default": "d", "type": "string"}, "d"),
        ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, 1),
        ({"type": "array", "items": {"type": "string"}}, ["example x"]),
        (
            {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "days": {"type": "integer"},
                    "opts": {"properties": {"metric": {"type": "boolean"}}},
                },
            },
            {"city": "example city", "days": 1, "opts": {"metric": True}},
        ),
        ("not a schema", "example x"),
    ],
)
def test_example_values_fit_their_schema(schema: Any, expected: Any) -> None:
    assert example_value(schema, "x", 0) == expected


def test_deep_schemas_stop_recursing() -> None:
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    schema["properties"]["self"] = schema  # a recursive schema
    value = example_value(schema, "x", 0)
    depth = 0
    while value:
        value, depth = value["self"], depth + 1
    assert depth == 6

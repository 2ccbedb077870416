"""Unusual ``openai-responses`` shapes round trip exactly, and conversations (exchanges,
answers with ids, edited or unanswered ones) render requests the API accepts.
"""

from __future__ import annotations

from typing import Any

import pytest

from providers.formats.openai_responses import render_request
from providers.umf import (
    TextBlock,
    ThinkingBlock,
)
from tests.providers.formats.openai_responses._edge_payloads import EDGE_PAYLOADS
from tests.providers.formats.openai_responses._helpers import (
    FORMAT_ID,
    RESPONSES,
    assert_round_trips,
    load,
    parse_one,
    stored,
)
from tests.providers.sdk.openai_responses import (
    check_openai_responses_rules,
    validate_openai_responses_request,
)

# --------------------------------------------------------------------------- exact shapes


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_round_trip_exactly(payload: Any) -> None:
    assert_round_trips(payload)


@pytest.mark.parametrize("payload", EDGE_PAYLOADS.values(), ids=EDGE_PAYLOADS.keys())
def test_edge_shapes_still_render_requests_the_api_accepts(payload: Any) -> None:
    request = render_request(stored(parse_one(payload))).payload
    validate_openai_responses_request(request)
    check_openai_responses_rules(request)


def test_an_exchange_renders_as_the_next_request() -> None:
    payload = load("exchange_reasoning_usage.json")
    request = render_request(parse_one(payload)).payload
    reasoning, message = payload["response"]["output"]
    # The answer's items go back as they came: the reasoning with its id, the message
    # that followed it with its own.
    assert request["input"][2:] == [reasoning, message]
    assert [item["role"] for item in request["input"][:2]] == ["developer", "user"]
    assert request["reasoning"] == {"effort": "high", "summary": "detailed"}


def test_answers_with_an_id_go_back_in_full_output_form() -> None:
    payload = [
        {"role": "assistant", "id": "msg_1", "content": [{"type": "input_text", "text": "a"}]},
        {"role": "assistant", "id": "msg_2", "content": "b"},
        {"role": "assistant", "id": "not_a_message_id", "content": "c"},
    ]
    request = render_request(parse_one(payload))
    validate_openai_responses_request(request.payload)
    assert request.payload["input"] == [
        {
            "role": "assistant",
            "id": f"msg_{number}",
            "type": "message",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
        for number, text in ((1, "a"), (2, "b"))
    ] + [{"role": "assistant", "content": "c"}]
    assert [(w.category, w.field, w.original_value) for w in request.warnings] == [
        ("id-rewritten", "messages[0].content[2].id", "not_a_message_id"),
        ("parameter-defaulted", "parameters.model", None),
    ]


def test_a_conversation_edited_after_import_still_renders() -> None:
    conversation = parse_one(load("bare_response_incomplete.json"))
    answer = conversation.messages[0]
    answer.content[0] = ThinkingBlock(
        text="rewritten", provider=FORMAT_ID, extra=answer.content[0].extra
    )
    answer.content.append(TextBlock(text="added later"))
    output = RESPONSES.render(conversation).payload["output"]
    assert output[0]["summary"] == [{"type": "summary_text", "text": "rewritten"}]
    assert output[-1] == {"role": "assistant", "content": "added later"}


def test_an_unanswered_conversation_renders_its_request() -> None:
    conversation = parse_one(load("refusal_exchange.json"))
    conversation.messages.pop()
    payload = RESPONSES.render(conversation).payload
    assert payload == load("refusal_exchange.json")["request"]

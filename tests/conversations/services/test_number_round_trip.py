"""JSON numbers survive import -> PostgreSQL (jsonb) -> export with their value and type.

``jsonb`` keeps numbers as ``numeric``: a float written as ``1e+16`` would come back as
the integer ``10000000000000000`` (see ``conversations/jsonb_text.py``). Each payload is
sent as raw text, so that the number is spelled exactly as written here, and the export
is compared with the standard library's reading of it, which tells ``1e16`` from
``10000000000000000`` and ``1.0`` from ``1``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

# Both ways of writing and reading rows (conversations.pgsql and the ORM).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("statements")]

NUMBERS = [
    # Floats that jsonb printed back as integers before jsonb_text.
    "1e16",
    "1.5e16",
    "-1e17",
    "1e18",
    "1.8446744073709552e19",
    "1e300",
    "-1e300",
    "1.7976931348623157e308",
    # Floats it always gave back.
    "1.0",
    "-1.0",
    "0.0",
    "1E2",
    "1e15",
    "5e-324",
    "2.2250738585072014e-308",
    "1e-7",
    "0.1000000000000000055511151231257827",
    # Integers, up to the 64-bit limits of the strict reader.
    "0",
    "-0",
    "18446744073709551615",
    "-9223372036854775808",
]


def openai_chat(number: str) -> str:
    """A request with ``number`` in a field openai-chat has no name for (at the top and in
    a message), in a known parameter, in a tool's JSON schema and in call arguments."""
    return f"""{{
      "model": "gpt-4o", "x_float": {number}, "temperature": {number},
      "messages": [
        {{"role": "user", "content": "hi", "x_number": [{number}]}},
        {{"role": "assistant", "content": null, "tool_calls": [{{"id": "call_1",
          "type": "function",
          "function": {{"name": "f", "arguments": "{{\\"v\\": {number}}}"}}}}]}},
        {{"role": "tool", "tool_call_id": "call_1", "content": "ok"}}
      ],
      "tools": [{{"type": "function", "function": {{"name": "f", "parameters": {{
        "type": "object", "properties": {{"v": {{"type": "number", "maximum": {number}}}}}}}}}}}]
    }}"""


def anthropic(numbers: list[str]) -> str:
    """A request with ``numbers`` in a tool call's input (an object, not a string), in a
    tool's input schema and in fields Anthropic's format has no name for."""
    listed = ", ".join(numbers)
    return f"""{{
      "model": "claude-sonnet-4-5", "max_tokens": 100, "x_numbers": [{listed}],
      "tools": [{{"name": "f", "input_schema": {{"type": "object",
        "properties": {{"v": {{"type": "number", "enum": [{listed}]}}}}}}}}],
      "messages": [
        {{"role": "user", "content": "hi"}},
        {{"role": "assistant", "content": [
          {{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {{"v": [{listed}]}}}}]}},
        {{"role": "user", "content": [
          {{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok", "x_r": [{listed}]}}]}}
      ]
    }}"""


def import_raw(api: APIClient, format_id: str, payload: str) -> Any:
    body = f'{{"format": "{format_id}", "payload": {payload}}}'
    return api.post("/api/v1/conversations/import", body, content_type="application/json")


def round_trip(api: APIClient, format_id: str, payload: str) -> tuple[Any, str]:
    """The exported payload (as the standard library reads it) and the conversation id."""
    imported = import_raw(api, format_id, payload)
    assert imported.status_code == 201, imported.json()
    pk = imported.json()["conversations"][0]["id"]
    exported = api.get(f"/api/v1/conversations/{pk}/export", {"format": format_id})
    assert exported.status_code == 200
    return json.loads(exported.content)["payload"], pk


def exact(value: Any) -> str:
    """``value`` as text that differs whenever a number's value or type does."""
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize("number", NUMBERS)
def test_a_number_comes_back_with_its_value_and_type(api: APIClient, number: str) -> None:
    payload = openai_chat(number)
    exported, _ = round_trip(api, "openai-chat", payload)
    assert exact(exported) == exact(json.loads(payload))


def test_numbers_in_tool_input_and_schemas_come_back(api: APIClient) -> None:
    payload = anthropic(NUMBERS)
    exported, _ = round_trip(api, "anthropic", payload)
    assert exact(exported) == exact(json.loads(payload))


def test_an_export_imported_again_is_the_same_conversation(api: APIClient) -> None:
    # The same document hashes the same: a float that came back an integer would not.
    exported, pk = round_trip(api, "anthropic", anthropic(["1e16", "1e300", "1.5"]))
    again = api.post(
        "/api/v1/conversations/import",
        {"format": "anthropic", "payload": exported},
        format="json",
    )
    assert again.status_code == 200, again.json()
    assert again.json()["conversations"][0]["id"] == pk


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
def test_numbers_json_cannot_hold_are_refused(api: APIClient, number: str) -> None:
    response = import_raw(api, "openai-chat", openai_chat(number))
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"


def test_a_negative_zero_is_stored_and_comes_back_as_zero(api: APIClient) -> None:
    # numeric has no sign on zero. A -0.0 (a log probability of a certain token can be
    # one) is still imported: refusing a whole conversation for the sign of a zero would
    # cost the user more than the sign, and the two are equal as numbers.
    exported, _ = round_trip(api, "openai-chat", openai_chat("-0.0"))
    assert exported["x_float"] == 0.0 and str(exported["x_float"]) == "0.0"
    assert exported == json.loads(openai_chat("-0.0"))

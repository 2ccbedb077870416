"""Reading over HTTP: list with filters and search, detail in UMF, export, delete, convert."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from conversations import models
from conversations.api.filters import NOT_BLANK
from tests.conftest import load_fixture
from tests.conversations.helpers import imported

pytestmark = pytest.mark.django_db


def titles(response: Any) -> list[str]:
    assert response.status_code == 200, response.json()
    return [item["title"] for item in response.json()["results"]]


def test_list_is_newest_first_with_summaries(api: APIClient, archive: dict[str, str]) -> None:
    response = api.get("/api/v1/conversations/")
    assert titles(response) == ["Search", "Rust", "Umbrella for Paris and Tokyo?"]
    first = response.json()["results"][0]
    assert first["format"] == "umf"
    assert first["message_count"] == 2
    assert first["warning_count"] == 1
    assert first["model"] == "gpt-4"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("format=umf", ["Search", "Rust", "Umbrella for Paris and Tokyo?"]),
        ("format=anthropic", []),
        ("model=claude-sonnet-4-5", ["Umbrella for Paris and Tokyo?"]),
        ("tool=search", ["Search"]),
        ("tool=get_forecast", ["Umbrella for Paris and Tokyo?"]),
        ("has_warnings=true", ["Search"]),
        ("has_warnings=false", ["Rust", "Umbrella for Paris and Tokyo?"]),
        ("created_before=2000-01-01T00:00:00Z", []),
    ],
)
def test_list_filters(
    api: APIClient, archive: dict[str, str], query: str, expected: list[str]
) -> None:
    assert titles(api.get(f"/api/v1/conversations?{query}")) == expected


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("umbrella", ["Umbrella for Paris and Tokyo?"]),
        ("forecasts", ["Umbrella for Paris and Tokyo?"]),  # stemming: "check the forecasts"
        ("timed out", ["Umbrella for Paris and Tokyo?"]),
        ("parallel", ["Umbrella for Paris and Tokyo?"]),  # reasoning is searchable
        ("rain_chance", ["Umbrella for Paris and Tokyo?"]),  # tool results are searchable
        ("limit", ["Search"]),  # tool arguments are searchable
        ("concurrency", ["Rust"]),
        ("zeppelin", []),
    ],
)
def test_full_text_search_covers_text_reasoning_and_tools(
    api: APIClient, archive: dict[str, str], q: str, expected: list[str]
) -> None:
    assert titles(api.get("/api/v1/conversations", {"q": q})) == expected


def test_pagination_walks_every_conversation_once(api: APIClient) -> None:
    for index in range(7):
        imported(api, [{"role": "user", "content": f"message {index}"}], "umf")
    seen: list[str] = []
    url = "/api/v1/conversations?page_size=3"
    while url:
        body = api.get(url).json()
        seen.extend(item["id"] for item in body["results"])
        url = body["next"]
    assert len(seen) == len(set(seen)) == 7


@pytest.mark.parametrize(
    "query", ["page_size=0", "page_size=abc", "has_warnings=maybe", "created_after=yesterday"]
)
def test_bad_list_parameters_are_400(api: APIClient, query: str) -> None:
    response = api.get(f"/api/v1/conversations?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == query.split("=")[0]


def test_the_schemas_not_blank_pattern_is_what_the_server_trims() -> None:
    # The pattern is published in the schema, whose readers (ECMAScript regexes) must
    # refuse exactly the values the server finds blank: every character, alone.
    [validator] = NOT_BLANK
    assert isinstance(validator.regex, re.Pattern)
    pattern = re.compile(validator.regex.pattern, re.ASCII)  # no Unicode \s to lean on
    for code in range(0x3100):
        char = chr(code)
        assert bool(pattern.match(char)) == (char != "\0" and bool(char.strip())), hex(code)
    assert pattern.match("\ufeff")  # ECMAScript's \s has it; DRF keeps it


@pytest.mark.parametrize("value", ["\x1f", " \x85 ", "\u3000"])
def test_a_value_the_server_trims_to_nothing_is_400_blank(api: APIClient, value: str) -> None:
    response = api.get("/api/v1/conversations", {"q": value})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "q"


def test_detail_returns_the_conversation_in_umf(api: APIClient, archive: dict[str, str]) -> None:
    response = api.get(f"/api/v1/conversations/{archive['weather']}")
    assert response.status_code == 200
    body = response.json()
    assert body["title"] == "Umbrella for Paris and Tokyo?"
    conversation = body["conversation"]
    assert [m["role"] for m in conversation["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
    ]
    assert conversation["messages"][2]["content"][0]["signature"] == "EqQBCkgIARABGAIiQL8xg"
    assert conversation["tools"][0]["name"] == "get_forecast"


@pytest.mark.parametrize("suffix", ["", "/"])
def test_paths_work_with_and_without_trailing_slash(
    api: APIClient, archive: dict[str, str], suffix: str
) -> None:
    pk = archive["rust"]
    for path in [
        "/api/v1/formats",
        "/api/v1/conversations",
        f"/api/v1/conversations/{pk}",
        f"/api/v1/conversations/{pk}/export",
    ]:
        assert api.get(path + suffix).status_code == 200, path + suffix


def test_export_to_the_source_format_gives_back_the_payload(
    api: APIClient, archive: dict[str, str]
) -> None:
    response = api.get(f"/api/v1/conversations/{archive['search']}/export", {"format": "umf"})
    assert response.status_code == 200
    assert response.json() == {
        "format": "umf",
        "payload": load_fixture("umf/seed-openai-tools.json"),
        "warnings": [],
    }


@pytest.mark.parametrize("query", ["?format=word-doc", "?format="])
def test_export_to_an_unknown_format_is_400(
    api: APIClient, archive: dict[str, str], query: str
) -> None:
    # A blank format is not the default's (umf): the request asked for a format and gave none.
    response = api.get(f"/api/v1/conversations/{archive['rust']}/export{query}")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "format"


def test_delete_moves_the_conversation_to_the_trash_and_a_purge_removes_its_rows(
    api: APIClient, archive: dict[str, str]
) -> None:
    pk = archive["weather"]
    assert api.delete(f"/api/v1/conversations/{pk}").status_code == 204
    assert api.get(f"/api/v1/conversations/{pk}").status_code == 404
    assert models.Message.objects.filter(conversation_id=pk).exists()  # until purged
    assert api.post("/api/v1/trash/purge", {"ids": [pk]}, format="json").json() == {"count": 1}
    assert not models.Message.objects.filter(conversation_id=pk).exists()
    assert not models.ToolCall.objects.filter(conversation_id=pk).exists()


def test_unknown_or_malformed_ids_are_404_json(api: APIClient) -> None:
    for pk in ["not-a-uuid", "01a20180-dc9d-75a0-b49d-8de274b88d6b"]:
        response = api.get(f"/api/v1/conversations/{pk}")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"


def test_convert_stores_nothing_and_names_the_detected_format(api: APIClient) -> None:
    payload = load_fixture("umf/seed-tool-calling.json")
    response = api.post(
        "/api/v1/convert", {"from": "auto", "to": "umf", "payload": payload}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {"from": "umf", "to": "umf", "payload": payload, "warnings": []}
    assert models.Conversation.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"to": "umf", "payload": []}, "from"),
        ({"from": "umf", "payload": []}, "to"),
        ({"from": "umf", "to": "auto", "payload": []}, "to"),
        ({"from": "umf", "to": "umf"}, "payload"),
    ],
)
def test_convert_bad_input(api: APIClient, body: dict[str, Any], field: str) -> None:
    response = api.post("/api/v1/convert", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == field


def test_formats_lists_every_format_with_capabilities(api: APIClient) -> None:
    body = api.get("/api/v1/formats/").json()
    by_id = {f["id"]: f for f in body}
    assert "umf" in by_id
    assert "thinking" in by_id["umf"]["capabilities"]["blocks"]
    assert by_id["umf"]["capabilities"]["tools"] is True


def test_openapi_schema_and_docs_are_served(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert b"/api/v1/conversations/import" in schema.content
    assert api.get("/api/docs/").status_code == 200

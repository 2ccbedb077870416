"""A long conversation over HTTP: its messages a page at a time
(``GET conversations/{id}/messages``), a detail that says it holds only the first ones,
and a streamed export."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from conversations import models
from tests.conversations.helpers import TREE, imported

pytestmark = pytest.mark.django_db


def chat(count: int) -> list[dict[str, Any]]:
    return [
        {"id": f"m{i}", "role": ("user", "assistant")[i % 2], "content": f"message {i}"}
        for i in range(count)
    ]


def pages(api: APIClient, url: str) -> list[list[dict[str, Any]]]:
    """Every page, following ``next``."""
    found = []
    while url:
        response = api.get(url)
        assert response.status_code == 200, response.json()
        found.append(response.json()["results"])
        url = response.json()["next"]
    return found


def test_pages_follow_one_another_to_the_end_and_back(api: APIClient) -> None:
    pk = imported(api, chat(12), "umf")
    found = pages(api, f"/api/v1/conversations/{pk}/messages?limit=5")
    assert [len(page) for page in found] == [5, 5, 2]
    assert [r["message"]["id"] for page in found for r in page] == [f"m{i}" for i in range(12)]
    last = api.get(f"/api/v1/conversations/{pk}/messages?limit=5").json()["next"]
    second = api.get(last).json()
    back = api.get(second["previous"]).json()
    assert [r["message"]["id"] for r in back["results"]] == [f"m{i}" for i in range(5)]
    assert back["previous"] is None


def test_the_pages_hold_what_the_detail_holds(api: APIClient) -> None:
    pk = imported(api, chat(7), "umf")
    detail = api.get(f"/api/v1/conversations/{pk}").json()
    assert detail["messages_truncated"] is False
    assert detail["messages_url"].endswith(f"/api/v1/conversations/{pk}/messages")
    paged = [r["message"] for page in pages(api, detail["messages_url"] + "?limit=3") for r in page]
    assert paged == detail["conversation"]["messages"]


def test_a_long_conversations_detail_holds_its_first_messages_and_says_so(
    api: APIClient, settings: Any
) -> None:
    settings.UMF_DETAIL_MAX_INLINE_MESSAGES = 4
    pk = imported(api, chat(10), "umf")
    detail = api.get(f"/api/v1/conversations/{pk}").json()
    assert detail["messages_truncated"] is True
    assert detail["message_count"] == 10
    assert [m["id"] for m in detail["conversation"]["messages"]] == ["m0", "m1", "m2", "m3"]
    rest = pages(api, detail["messages_url"])
    assert [r["message"]["id"] for r in rest[0]] == [f"m{i}" for i in range(10)]


def test_leaf_pages_through_the_branch(api: APIClient) -> None:
    pk = imported(api, TREE, "umf")
    a1 = models.Message.objects.get(conversation_id=pk, source_id="a1").pk
    found = pages(api, f"/api/v1/conversations/{pk}/messages?leaf={a1}&limit=1")
    assert [r["message"]["id"] for page in found for r in page] == ["q1", "a1"]
    # without a leaf, every imported message, as the detail holds them
    whole = pages(api, f"/api/v1/conversations/{pk}/messages")
    assert [r["message"]["id"] for r in whole[0]] == ["q1", "a1", "a2", "q2", "a3", "a4"]


@pytest.mark.parametrize(
    ("query", "status", "code", "field"),
    [
        ("cursor=bm90IGEgY3Vyc29y", 422, "invalid_cursor", "cursor"),
        ("cursor=%%%", 422, "invalid_cursor", "cursor"),
        ("cursor=YS01", 422, "invalid_cursor", "cursor"),  # "a-5"
        ("limit=0", 400, "min_value", "limit"),
        ("limit=201", 400, "max_value", "limit"),
        ("leaf=nope", 400, "invalid", "leaf"),
        ("leaf=01a224dd-c90d-712d-88e7-adcbb030e2f2", 422, "unknown_leaf", "leaf"),
    ],
)
def test_bad_parameters_are_named(
    api: APIClient, query: str, status: int, code: str, field: str
) -> None:
    pk = imported(api, chat(3), "umf")
    response = api.get(f"/api/v1/conversations/{pk}/messages?{query}")
    assert response.status_code == status
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["field"] == field


def test_someone_elses_messages_are_not_found(api: APIClient, bob_api: APIClient) -> None:
    pk = imported(api, chat(3), "umf")
    assert bob_api.get(f"/api/v1/conversations/{pk}/messages").status_code == 404


def count(api: APIClient, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert api.get(path).status_code == 200
    return len(captured.captured_queries)


def test_a_page_runs_the_same_queries_whatever_the_length(api: APIClient) -> None:
    short, long = imported(api, chat(3), "umf"), imported(api, chat(300), "umf")
    # token, conversation, the page's keys, its messages, their blocks
    assert count(api, f"/api/v1/conversations/{short}/messages") == 5
    assert count(api, f"/api/v1/conversations/{long}/messages?limit=200") == 5
    leaf = models.Message.objects.get(conversation_id=long, source_id="m299").pk
    assert count(api, f"/api/v1/conversations/{long}/messages?leaf={leaf}") == 5


def test_a_long_conversation_exports_to_umf_as_a_stream_of_the_same_json(
    api: APIClient, settings: Any
) -> None:
    pk = imported(api, chat(30), "umf")
    whole = api.get(f"/api/v1/conversations/{pk}/export?format=umf")
    assert not whole.streaming
    settings.UMF_DETAIL_MAX_INLINE_MESSAGES = 10
    streamed = api.get(f"/api/v1/conversations/{pk}/export?format=umf")
    assert streamed.streaming and streamed["content-type"] == "application/json"
    assert orjson.loads(b"".join(streamed.streaming_content)) == whole.json()  # type: ignore[attr-defined]
    # a format that renders a conversation whole is not streamed
    assert not api.get(f"/api/v1/conversations/{pk}/export?format=anthropic").streaming


def test_the_schema_documents_the_messages_and_the_truncated_detail(api: APIClient) -> None:
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    messages = schema["paths"]["/api/v1/conversations/{id}/messages/"]["get"]
    assert {p["name"] for p in messages["parameters"]} >= {"cursor", "limit", "leaf"}
    detail = schema["components"]["schemas"]["ConversationDetail"]["properties"]
    assert {"messages_truncated", "messages_url"} <= set(detail)


def test_a_truncated_detail_runs_the_same_queries_whatever_the_length(
    api: APIClient, settings: Any
) -> None:
    settings.UMF_DETAIL_MAX_INLINE_MESSAGES = 3
    shorter, longer = imported(api, chat(10), "umf"), imported(api, chat(60), "umf")
    # a normal detail's six (token, conversation, messages, blocks, tools, warnings) and
    # the position where the first three messages end
    assert count(api, f"/api/v1/conversations/{shorter}") == 7
    assert count(api, f"/api/v1/conversations/{longer}") == 7

"""Importing over HTTP: created, idempotent, atomic, and clear about bad input."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from rest_framework.test import APIClient

from conversations import models
from tests.conftest import load_fixture

pytestmark = pytest.mark.django_db

WEATHER = "umf/weather-tools.json"


def import_payload(api: APIClient, payload: Any, fmt: str = "auto", **more: Any) -> Any:
    return api.post(
        "/api/v1/conversations/import", {"format": fmt, "payload": payload, **more}, format="json"
    )


def test_import_creates_a_normalised_conversation(api: APIClient) -> None:
    response = import_payload(api, load_fixture(WEATHER))

    assert response.status_code == 201
    body = response.json()
    assert body["format"] == "umf"
    [item] = body["conversations"]
    assert item["title"] == "Umbrella for Paris and Tokyo?"
    assert item["created"] is True
    conversation = models.Conversation.objects.get(pk=item["id"])
    assert conversation.message_count == 6
    assert conversation.messages.count() == 6
    assert models.ContentBlock.objects.filter(message__conversation=conversation).count() == 9
    assert list(conversation.tool_definitions.values_list("name", flat=True)) == ["get_forecast"]
    calls = {c.call_id: c for c in conversation.tool_calls.select_related("result_block")}
    assert set(calls) == {"toolu_01A9", "toolu_01B7"}
    assert calls["toolu_01B7"].is_error is True
    assert calls["toolu_01A9"].result_block is not None
    assert conversation.provenance.get().frontend == "umf"


def test_messages_form_a_chain_through_parent(api: APIClient) -> None:
    item = import_payload(api, load_fixture(WEATHER)).json()["conversations"][0]
    messages = list(models.Message.objects.filter(conversation_id=item["id"]).order_by("position"))
    assert messages[0].parent is None
    assert all(m.parent_id == p.id for p, m in itertools.pairwise(messages))


def test_the_same_payload_again_returns_the_existing_conversation(api: APIClient) -> None:
    first = import_payload(api, load_fixture(WEATHER))
    again = import_payload(api, load_fixture(WEATHER), title="another title")

    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["conversations"][0]["id"] == first.json()["conversations"][0]["id"]
    assert again.json()["conversations"][0]["created"] is False
    assert models.Conversation.objects.count() == 1


def test_the_same_payload_for_another_owner_is_their_own_copy(
    api: APIClient, bob_api: APIClient
) -> None:
    mine = import_payload(api, load_fixture(WEATHER)).json()["conversations"][0]["id"]
    theirs = import_payload(bob_api, load_fixture(WEATHER)).json()["conversations"][0]["id"]
    assert mine != theirs


def test_base64_media_is_stored_once_as_an_attachment(api: APIClient) -> None:
    payload = load_fixture("umf/seed-tool-calling.json")
    import_payload(api, payload)
    payload.append({"role": "assistant", "content": "Same image again:"})
    import_payload(api, payload)

    assert models.Attachment.objects.count() == 1
    image_blocks = models.ContentBlock.objects.filter(type="image", attachment__isnull=False)
    assert image_blocks.count() == 2
    assert all("data" not in block.payload["source"] for block in image_blocks)


def test_a_title_can_be_given(api: APIClient) -> None:
    body = import_payload(api, [{"role": "user", "content": "hi"}], "umf", title="Greeting").json()
    assert body["conversations"][0]["title"] == "Greeting"


def test_batch_import_reports_each_item(api: APIClient) -> None:
    response = api.post(
        "/api/v1/conversations/import/batch/",
        [
            {"format": "umf", "payload": load_fixture(WEATHER)},
            {"format": "umf", "payload": {"messages": 3}},
            {"format": "nope", "payload": []},
            {"format": "umf", "payload": load_fixture(WEATHER)},
        ],
        format="json",
    )

    assert response.status_code == 207
    results = response.json()["results"]
    assert [r["status"] for r in results] == [201, 422, 400, 200]
    assert results[1]["error"]["field"] == "payload.messages"
    assert results[2]["error"]["field"] == "format"
    assert models.Conversation.objects.count() == 1


def test_batch_must_be_a_list(api: APIClient) -> None:
    response = api.post("/api/v1/conversations/import/batch", {"format": "umf"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "body"


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"payload": []}, 400, "format"),
        ({"format": "umf"}, 400, "payload"),
        ({"format": "umf", "payload": None}, 400, "payload"),
        ({"format": 12, "payload": []}, 400, "format"),
        ({"format": "no-such-format", "payload": []}, 400, "format"),
        ({"format": "umf", "payload": {"messages": [{"role": "wizard"}]}}, 422, None),
        ({"format": "umf", "payload": "just a string"}, 422, "payload"),
        ({"format": "auto", "payload": {"hello": "world"}}, 422, "payload"),
        (
            {
                "format": "umf",
                "payload": [
                    {"role": "user", "content": "hi"},
                    {"role": "tool", "tool_call_id": "call_9", "content": "orphan"},
                ],
            },
            422,
            "messages[1].tool_call_id",
        ),
    ],
)
def test_bad_input_gets_a_json_error_naming_the_field(
    api: APIClient, body: dict[str, Any], status: int, field: str | None
) -> None:
    response = api.post("/api/v1/conversations/import", body, format="json")

    assert response.status_code == status
    error = response.json()["error"]
    assert error["message"]
    if field is not None:
        assert error["field"] == field
    assert models.Conversation.objects.count() == 0


def test_malformed_json_is_a_400(api: APIClient) -> None:
    response = api.post(
        "/api/v1/conversations/import",
        b'{"format": "umf", "payload": [',
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"


def test_an_oversized_body_is_a_413_before_parsing(api: APIClient, settings: Any) -> None:
    settings.MAX_REQUEST_BYTES = 1000
    payload = [{"role": "user", "content": "x" * 2000}]
    response = import_payload(api, payload)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert models.Conversation.objects.count() == 0


def test_a_failure_midway_leaves_nothing_behind(api: APIClient, monkeypatch: Any) -> None:
    from conversations.services import bulk, storage

    def explode_on_tool_calls(tables: Any) -> None:
        models_in_order = [model for model, _ in tables]
        bulk.insert_tables(tables[: models_in_order.index(models.ToolCall)])
        assert models.Message.objects.exists()  # messages and blocks were written
        raise RuntimeError("disk full")

    monkeypatch.setattr(storage, "insert_tables", explode_on_tool_calls)
    response = import_payload(api, load_fixture(WEATHER))
    assert response.status_code == 500  # a bug, answered in the API's error shape
    assert response.json()["error"]["code"] == "server_error"
    assert models.Conversation.objects.count() == 0
    assert models.Message.objects.count() == 0
    assert models.ContentBlock.objects.count() == 0


def test_anonymous_clients_are_refused() -> None:
    response = APIClient().post("/api/v1/conversations/import", {}, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_a_payload_imported_as_the_wrong_format_says_which_it_is(api: APIClient) -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    response = api.post(
        "/api/v1/conversations/import", {"format": "gemini", "payload": body}, format="json"
    )
    assert response.status_code == 422
    assert (
        "this reads as openai-chat (OpenAI Chat Completions), not gemini"
        in (response.json()["error"]["message"])
    )

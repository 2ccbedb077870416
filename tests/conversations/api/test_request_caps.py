"""What one request or conversation may hold (issue 21): the JSON objects of a request,
counted before any format reads it (a million tiny messages would cost gigabytes to
read), and the messages and content blocks of a stored conversation. Each limit is a
422 that names it, and nothing is written."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from rest_framework.test import APIClient

from conversations import json_input, models

pytestmark = pytest.mark.django_db


def messages(count: int) -> list[dict[str, str]]:
    return [{"role": "user" if i % 2 == 0 else "assistant", "content": "hi"} for i in range(count)]


def test_a_request_of_too_many_objects_is_refused_before_it_is_read(
    api: APIClient, settings: Any
) -> None:
    settings.UMF_MAX_REQUEST_OBJECTS = 1_000
    payload = {"model": "m", "messages": messages(5_000)}
    for path, body in [
        ("/api/v1/conversations/import", {"format": "openai-chat", "payload": payload}),
        ("/api/v1/convert", {"from": "openai-chat", "to": "anthropic", "payload": payload}),
    ]:
        response = api.post(path, body, format="json")
        assert response.status_code == 413, (path, response.json())
        error = response.json()["error"]
        assert error["field"] == "body"
        assert "more than 1,000 JSON objects" in error["message"]
        assert "UMF_MAX_REQUEST_OBJECTS" in error["message"]
    assert models.Conversation.objects.count() == 0
    allowed = {"format": "openai-chat", "payload": {"model": "m", "messages": messages(900)}}
    assert api.post("/api/v1/conversations/import", allowed, format="json").status_code == 201


def test_brackets_inside_strings_are_not_objects() -> None:
    # Code in a message is full of brackets: only the structure counts, escapes included.
    text = 'f({"a": [1]}) \\ "quoted [x]" \\\\'
    body = orjson.dumps([{"role": "user", "content": text * 20}] * 3)
    assert len(json_input.loads(body, max_objects=4)) == 3  # the array and three objects
    with pytest.raises(json_input.JsonError) as refused:
        json_input.loads(orjson.dumps([{"content": text * 20}] * 4), max_objects=4)
    assert refused.value.code == "too_many_objects"


def test_a_short_body_is_not_counted() -> None:
    # 2 bytes an object at least: a body of fewer than 2 x max bytes cannot exceed it.
    assert json_input.loads(b"[[],[],[]]", max_objects=5) == [[], [], []]
    with pytest.raises(json_input.JsonError) as refused:
        json_input.loads(b"[[],[],[],[],[],[]]", max_objects=5)
    assert refused.value.code == "too_many_objects"


@pytest.mark.parametrize(
    ("setting", "limit", "words"),
    [
        ("UMF_MAX_MESSAGES", 50, "holds 60 messages; the archive keeps at most 50"),
        ("UMF_MAX_BLOCKS", 50, "holds 60 content blocks; the archive keeps at most 50"),
    ],
)
def test_a_conversation_above_its_caps_is_refused_with_the_setting_named(
    api: APIClient, settings: Any, setting: str, limit: int, words: str
) -> None:
    setattr(settings, setting, limit)
    response = api.post(
        "/api/v1/conversations/import", {"format": "umf", "payload": messages(60)}, format="json"
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert words in error["message"] and setting in error["message"]
    assert error["field"] == "messages"
    assert models.Conversation.objects.count() == 0

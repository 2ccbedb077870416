"""What the tests of ``conversations`` share: conversations stored through the service or
imported through the API, files uploaded to the job path, logged-in clients, Redis."""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
import redis
from django.test import Client
from rest_framework.test import APIClient

from conversations import models, services
from tests.conftest import load_fixture


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def store(owner: Any, payload: Any, format_id: str = "umf", title: str | None = None) -> Any:
    """Import ``payload`` for ``owner`` through the service; the stored conversation."""
    _, results = services.conversation_import(
        owner=owner, format_id=format_id, payload=payload, title=title
    )
    return results[0].conversation


def replayed_from_page(client: Client, capture: Any, conversation: Any, mode: str) -> Any:
    """Start an echo replay from the conversation's page (its tasks run at once, through
    ``capture``, the on-commit callbacks fixture); the run."""
    with capture(execute=True):
        response = client.post(
            f"/conversations/{conversation.pk}/replays/",
            {"provider": "echo", "model": "echo-1", "mode": mode},
        )
    assert response.status_code == 302, response.status_code
    return models.ReplayRun.objects.get(conversation=conversation)


def html(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return str(response.content.decode())


def message_ids(conversation: Any) -> dict[str, Any]:
    """Stored message ids by their UMF (source) id."""
    rows = models.Message.objects.filter(conversation=conversation)
    return {str(row.source_id): row.pk for row in rows}


PNG_1PX = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5E"
    "rkJggg=="
)

TREE = {
    "metadata": {"title": "Haiku tree"},
    "messages": [
        {"id": "q1", "role": "user", "content": "Write a haiku."},
        {"id": "a1", "parent_id": "q1", "role": "assistant", "content": "first answer"},
        {"id": "a2", "parent_id": "q1", "role": "assistant", "content": "second answer"},
        {"id": "q2", "parent_id": "a2", "role": "user", "content": "another please"},
        {"id": "a3", "parent_id": "q2", "role": "assistant", "content": "third answer"},
        {"id": "a4", "parent_id": "q1", "role": "assistant", "content": "fourth answer"},
    ],
}


def tool_conversation(turns: int, tag: str) -> list[dict[str, Any]]:
    """A user question, then ``turns`` tool calls each answered, with usage and text."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": f"start {tag} **bold**"}]
    for turn in range(turns):
        call = f"call_{tag}_{turn}"
        messages += [
            {
                "role": "assistant",
                "model": "gpt-4o",
                "usage": {"prompt_tokens": 10, "completion_tokens": 5},
                "content": [
                    {"type": "thinking", "text": f"think {turn}", "signature": "sig"},
                    {"type": "text", "text": f"turn {turn} with `code`"},
                    {"type": "tool_use", "id": call, "name": "lookup", "input": {"n": turn}},
                ],
            },
            {
                "role": "tool",
                "tool_call_id": call,
                "content": [{"type": "tool_result", "tool_use_id": call, "content": str(turn)}],
            },
        ]
    return messages


def imported(api: APIClient, payload: Any, fmt: str = "auto", title: str | None = None) -> str:
    """Import ``payload`` through the API; the id of the (first) conversation."""
    body: dict[str, Any] = {"format": fmt, "payload": payload}
    if title:
        body["title"] = title
    response = api.post("/api/v1/conversations/import", body, format="json")
    assert response.status_code in (200, 201), response.json()
    return str(response.json()["conversations"][0]["id"])


def weather_imported(api: APIClient) -> str:
    """The weather conversation with its tool calls (``umf/weather-tools.json``), imported
    through the API; its id."""
    return imported(api, load_fixture("umf/weather-tools.json"), "umf")


def zip_of(members: list[tuple[str, bytes]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def upload(api: APIClient, name: str, content: bytes, fmt: str = "auto") -> Any:
    """Upload a file to the job path (``POST /api/v1/imports/``); the response."""
    file = io.BytesIO(content)
    file.name = name
    return api.post("/api/v1/imports/", {"file": file, "format": fmt}, format="multipart")


def run_upload(api: APIClient, capture: Any, name: str, content: bytes, fmt: str = "auto") -> Any:
    """:func:`upload`, with the job run in-process (``capture``:
    ``django_capture_on_commit_callbacks``); the job as the API shows it."""
    with capture(execute=True):
        response = upload(api, name, content, fmt)
    assert response.status_code == 202, response.content
    job = api.get(f"/api/v1/imports/{response.json()['id']}")
    assert job.status_code == 200
    return job.json()


def redis_emptied(url: str) -> None:
    """Empty the Redis database of ``url``, or fail the test saying how to start Redis."""
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).flushdb()
    except redis.RedisError:
        pytest.fail(f"Redis is not reachable at {url}: start it (see .ci/run)")


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``condition`` until it holds, or fail after ``seconds`` naming ``what``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")

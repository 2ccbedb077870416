"""Shared helpers of the page tests: logged-in clients and conversations to look at."""

from __future__ import annotations

from typing import Any

from django.test import Client

from conversations import models, services


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

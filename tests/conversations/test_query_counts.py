"""List, detail and export run a fixed number of queries whatever the size."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def conversation(turns: int, tag: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": f"start {tag}"}]
    for turn in range(turns):
        call = f"call_{tag}_{turn}"
        messages += [
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": f"turn {turn}"},
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


def queries(api: APIClient, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = api.get(path)
    assert response.status_code == 200
    return len(captured.captured_queries)


def import_one(api: APIClient, payload: Any) -> str:
    response = api.post(
        "/api/v1/conversations/import", {"format": "umf", "payload": payload}, format="json"
    )
    return str(response.json()["conversations"][0]["id"])


def test_detail_and_export_queries_do_not_grow_with_length(api: APIClient, statements: str) -> None:
    small = import_one(api, conversation(1, "s"))
    large = import_one(api, conversation(60, "l"))
    for path in ["/api/v1/conversations/{pk}", "/api/v1/conversations/{pk}/export?format=umf"]:
        assert queries(api, path.format(pk=small)) == queries(api, path.format(pk=large))
        # token lookup, the conversation, messages, blocks, tools, warnings (the last four
        # sent together, in one round trip, by the hand-written statements)
        assert queries(api, path.format(pk=large)) == 6


def test_list_queries_do_not_grow_with_the_number_of_conversations(api: APIClient) -> None:
    import_one(api, conversation(1, "a"))
    few = queries(api, "/api/v1/conversations")
    for index in range(12):
        import_one(api, conversation(2, f"b{index}"))
    assert queries(api, "/api/v1/conversations") == few == 2
    # a search first looks in the index (selectors.listing._search_filter)
    assert queries(api, "/api/v1/conversations?q=turn&tool=lookup") == 3

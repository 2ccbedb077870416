"""List, detail and export run a fixed number of queries whatever the size."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.conversations.helpers import imported, tool_conversation

pytestmark = pytest.mark.django_db


def queries(api: APIClient, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = api.get(path)
    assert response.status_code == 200
    return len(captured.captured_queries)


def test_detail_and_export_queries_do_not_grow_with_length(api: APIClient, statements: str) -> None:
    small = imported(api, tool_conversation(1, "s"), "umf")
    large = imported(api, tool_conversation(60, "l"), "umf")
    for path in ["/api/v1/conversations/{pk}", "/api/v1/conversations/{pk}/export?format=umf"]:
        assert queries(api, path.format(pk=small)) == queries(api, path.format(pk=large))
        # token lookup, the conversation, messages, blocks, tools, warnings (the last four
        # sent together, in one round trip, by the hand-written statements)
        assert queries(api, path.format(pk=large)) == 6


def test_list_queries_do_not_grow_with_the_number_of_conversations(api: APIClient) -> None:
    imported(api, tool_conversation(1, "a"), "umf")
    few = queries(api, "/api/v1/conversations")
    for index in range(12):
        imported(api, tool_conversation(2, f"b{index}"), "umf")
    assert queries(api, "/api/v1/conversations") == few == 2
    # a search first looks in the index (selectors.listing._search_filter)
    assert queries(api, "/api/v1/conversations?q=turn&tool=lookup") == 3

"""A long conversation's download streams (in a format that can: umf), branch or tree,
and the export panel previews its start without writing it all."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from conversations import models
from tests.conversations.helpers import TREE, html, logged_in, store

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_tree(alice: Any, settings: Any) -> Any:
    settings.UMF_DETAIL_MAX_INLINE_MESSAGES = 2  # the tree's 6 messages make it long
    return store(alice, TREE)


def streamed(client: Any, conversation: Any, **query: str) -> Any:
    response = client.get(f"/conversations/{conversation.pk}/export/", query)
    assert response.status_code == 200 and response.streaming
    assert response["content-disposition"].endswith('.umf.json"')
    return orjson.loads(b"".join(response.streaming_content))


def test_the_tree_streams_as_the_file_a_short_one_would_be(
    alice: Any, long_tree: Any, settings: Any
) -> None:
    client = logged_in(alice)
    payload = streamed(client, long_tree, format="umf")
    settings.UMF_DETAIL_MAX_INLINE_MESSAGES = 1_000
    whole = client.get(f"/conversations/{long_tree.pk}/export/", {"format": "umf"})
    assert not whole.streaming
    assert payload == orjson.loads(whole.content)


def test_a_branch_streams_only_its_messages(alice: Any, long_tree: Any) -> None:
    leaf = models.Message.objects.get(conversation=long_tree, source_id="a1").pk
    payload = streamed(logged_in(alice), long_tree, format="umf", leaf=str(leaf), scope="branch")
    assert [m["id"] for m in payload["messages"]] == ["q1", "a1"]


def test_the_panel_previews_a_stream_without_a_size(alice: Any, long_tree: Any) -> None:
    fragment = html(
        logged_in(alice).get(f"/conversations/{long_tree.pk}/export/warnings/", {"format": "umf"})
    )
    assert "umf holds this conversation without loss" in fragment
    assert "Preview (the first" in fragment and " of " not in fragment.split("Preview")[1][:60]
    assert "second answer" in fragment

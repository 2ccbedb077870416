"""Export what is on screen (issue 20, item 4): on a branch (``?leaf=``) the download and
its warnings are of that branch, or of the whole tree when asked; and the panel previews
the file before it is downloaded."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from conversations import models
from tests.conversations.helpers import html, logged_in, store

pytestmark = pytest.mark.django_db

TREE = {
    "messages": [
        {"id": "q", "role": "user", "content": "Write a haiku."},
        {"id": "a1", "parent_id": "q", "role": "assistant", "content": "First draft: cherry rain"},
        {"id": "a2", "parent_id": "q", "role": "assistant", "content": "Second draft: autumn wind"},
        {"id": "f2", "parent_id": "a2", "role": "user", "content": "Shorter, please."},
    ]
}


@pytest.fixture
def tree(alice: Any) -> Any:
    return store(alice, TREE)


def row_id(conversation: Any, source_id: str) -> str:
    return str(models.Message.objects.get(conversation=conversation, source_id=source_id).pk)


def download(client: Any, conversation: Any, **query: str) -> str:
    response = client.get(f"/conversations/{conversation.pk}/export/", query)
    assert response.status_code == 200
    return str(response.content.decode())


def test_the_branch_on_screen_is_what_downloads(alice: Any, tree: Any) -> None:
    client = logged_in(alice)
    first = download(client, tree, format="openai-chat", leaf=row_id(tree, "a1"))
    assert "First draft" in first and "Second draft" not in first
    # Without a leaf: the imported thread, as before.
    default = download(client, tree, format="openai-chat")
    assert "Second draft" in default and "Shorter" in default and "First draft" not in default


def test_the_whole_tree_where_the_format_holds_one(alice: Any, tree: Any) -> None:
    client = logged_in(alice)
    whole = orjson.loads(
        download(client, tree, format="umf", leaf=row_id(tree, "a1"), scope="tree")
    )
    texts = str(whole)
    assert all(draft in texts for draft in ("First draft", "Second draft", "Shorter"))
    branch = download(client, tree, format="umf", leaf=row_id(tree, "a1"), scope="branch")
    assert "First draft" in branch and "Second draft" not in branch


def test_the_warnings_are_those_of_what_would_download(alice: Any, tree: Any) -> None:
    client = logged_in(alice)
    url = f"/conversations/{tree.pk}/export/warnings/"
    tree_warned = html(client.get(url, {"format": "openai-chat", "scope": "tree"}))
    branch = html(client.get(url, {"format": "openai-chat", "leaf": row_id(tree, "a1")}))
    other_branch = "takes one thread; this message is on another branch"
    assert other_branch in tree_warned  # the tree does not fit one thread
    assert other_branch not in branch  # a branch is one thread: nothing of it dropped


def test_the_panel_previews_the_file_with_its_size(alice: Any, tree: Any) -> None:
    client = logged_in(alice)
    fragment = html(
        client.get(
            f"/conversations/{tree.pk}/export/warnings/",
            {"format": "anthropic", "leaf": row_id(tree, "a1")},
        )
    )
    assert '<details class="export-preview"><summary>Preview</summary><pre>{' in fragment
    assert "First draft: cherry rain" in fragment and "Second draft" not in fragment


def test_a_long_file_is_previewed_in_part(alice: Any) -> None:
    long = [{"role": "user", "content": "word " * 10_000}]
    conversation = store(alice, long)
    fragment = html(
        logged_in(alice).get(
            f"/conversations/{conversation.pk}/export/warnings/", {"format": "openai-chat"}
        )
    )
    assert "Preview (the first 19.5" in fragment


def test_the_page_of_a_branch_offers_branch_or_tree(alice: Any, tree: Any) -> None:
    client = logged_in(alice)
    leaf = row_id(tree, "a1")
    page = html(client.get(f"/conversations/{tree.pk}/?leaf={leaf}"))
    assert f'<input type="hidden" name="leaf" value="{leaf}">' in page
    assert 'name="scope" value="branch" checked' in page
    assert 'name="scope"' not in html(client.get(f"/conversations/{tree.pk}/"))

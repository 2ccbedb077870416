"""Search finds the same conversations whichever way it takes: by the ids the index
gives (few matches) or by looking through the conversations newest first (many)."""

from __future__ import annotations

from typing import Any

import pytest

from conversations.selectors import listing
from tests.conversations.helpers import store

pytestmark = pytest.mark.django_db


def found(owner: Any, query: str) -> list[str]:
    return [row.title for row in listing.conversation_list(owner=owner, query=query)]


@pytest.mark.parametrize("probe", [listing.SEARCH_PROBE, 1])
def test_both_ways_find_the_same_conversations(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, probe: int
) -> None:
    monkeypatch.setattr(listing, "SEARCH_PROBE", probe)
    for index in range(3):
        text = f"the umbrella number {index}" if index != 1 else "a sunny day"
        store(alice, [{"role": "user", "content": text}], title=f"chat {index}")
    store(bob, [{"role": "user", "content": "bob's umbrella"}], title="bob's")
    tool_call = {"type": "tool_use", "id": "c1", "name": "forecast", "input": {"city": "Oslo"}}
    store(alice, [{"role": "assistant", "content": [tool_call]}], title="tool")
    assert found(alice, "umbrella") == ["chat 2", "chat 0"]
    assert found(alice, "oslo") == ["tool"]
    assert found(alice, "nowhere") == []

"""``export_conversations`` writes a file of many chunk by chunk: the file is the one that
rendering every conversation at once gives, byte for byte, at every archive size."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from conversations import export_files, models, selectors
from providers import formats
from tests.conversations.helpers import store, tool_conversation

pytestmark = pytest.mark.django_db

MANY = [f.id for f in formats.all_formats() if f.render_many is not None]


def test_the_formats_of_many_are_the_five_expected() -> None:
    # A new one is covered below by itself; this pins that the list is not empty by mistake.
    assert set(MANY) >= {"openai-finetune", "chatgpt-export", "claude-export", "sharegpt"}


@pytest.mark.parametrize("format_id", MANY)
@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 8])
def test_a_file_of_many_is_the_same_written_in_chunks(
    alice: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, format_id: str, size: int
) -> None:
    for number in range(size):
        store(alice, tool_conversation(1 + number % 2, f"c{number}"))
    target = formats.get(format_id)
    every = [
        selectors.conversation_umf(conversation=c).umf
        for c in models.Conversation.objects.order_by("created_at")
    ]
    expected = target.render_all(every)

    monkeypatch.setattr(export_files, "CHUNK", 2)  # sizes 5 and 8 span chunks
    output = io.StringIO()
    call_command(
        "export_conversations", "--format", format_id, "--out", str(tmp_path), stdout=output
    )

    [written] = list(tmp_path.iterdir())
    assert written.read_bytes() == export_files.encode(expected.payload)
    assert f"wrote {size} conversation(s)" in output.getvalue()
    assert f"({len(expected.warnings)} warnings)" in output.getvalue()

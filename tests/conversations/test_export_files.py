"""The rule of writing many conversations as one file (the export command's and the export
jobs'): chunks never hold one conversation alone, and a zip holds a file of one per
conversation, written to a stream that cannot seek."""

from __future__ import annotations

import io
import zipfile

import orjson
import pytest

from conversations import export_files
from providers import formats, umf


def test_chunks_never_leave_one_conversation_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export_files, "CHUNK", 3)
    for total in range(0, 20):
        sizes = [len(chunk) for chunk in export_files.chunks(range(total))]
        assert sum(sizes) == total
        assert all(size >= 2 for size in sizes) or sizes == [1]


class Unseekable:
    """Only write and flush, as an upload being stored."""

    def __init__(self) -> None:
        self.buffer = io.BytesIO()

    def write(self, data: bytes) -> int:
        return self.buffer.write(data)

    def flush(self) -> None:
        pass


def test_a_zip_holds_one_file_per_conversation_as_the_format_writes_it() -> None:
    target = formats.get("anthropic")
    conversations = [
        umf.Conversation(messages=[umf.Message(role="user", content=[umf.TextBlock(text=t)])])
        for t in ("first", "second")
    ]
    rendered = [(f"c{n}", target.render_all([c])) for n, c in enumerate(conversations)]
    sink = Unseekable()

    count, warnings = export_files.write_zip(sink, target, rendered)

    archive = zipfile.ZipFile(io.BytesIO(sink.buffer.getvalue()))
    assert archive.namelist() == ["c0.json", "c1.json"]
    assert orjson.loads(archive.read("c1.json")) == rendered[1][1].payload
    assert (count, warnings) == (2, sum(len(r.warnings) for _, r in rendered))


def test_a_job_names_its_file_by_what_the_format_holds() -> None:
    assert export_files.filename(formats.get("sharegpt")) == "conversations.json"
    assert export_files.filename(formats.get("openai-finetune")) == "conversations.jsonl"
    assert export_files.filename(formats.get("anthropic")) == "conversations-anthropic.zip"

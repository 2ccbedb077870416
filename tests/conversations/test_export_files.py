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
    said = [w for _, r in rendered for w in r.warnings]
    assert (count, warnings.count) == (2, len(said))
    assert [example["message"] for example in warnings.examples] == [w.message for w in said]
    assert warnings.examples[-1]["conversation"] == "c1"  # its file in the zip


def test_the_tally_counts_every_warning_and_keeps_only_the_first_few_as_said() -> None:
    tally = export_files.Tally()
    dropped = umf.DriftWarning(category="content-dropped", message="an image", field="m[0]")
    merged = umf.DriftWarning(category="role-merged", message="two turns", severity="info")
    tally.add([dropped] * (export_files.EXAMPLES + 5))
    tally.add([merged], where="c7")
    assert tally.count == export_files.EXAMPLES + 6
    summary = tally.summary()
    assert summary["categories"] == {"content-dropped": export_files.EXAMPLES + 5, "role-merged": 1}
    assert list(summary["categories"]) == ["content-dropped", "role-merged"]  # most first
    assert len(summary["examples"]) == export_files.EXAMPLES
    assert summary["examples"][0] == {
        "category": "content-dropped",
        "severity": "warning",
        "message": "an image",
        "field": "m[0]",
        "conversation": "",
    }


def test_a_job_names_its_file_by_what_the_format_holds() -> None:
    assert export_files.filename(formats.get("sharegpt")) == "conversations.json"
    assert export_files.filename(formats.get("openai-finetune")) == "conversations.jsonl"
    assert export_files.filename(formats.get("anthropic")) == "conversations-anthropic.zip"

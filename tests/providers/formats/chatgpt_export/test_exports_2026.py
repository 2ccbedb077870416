"""ChatGPT exports as they are downloaded in 2026: hidden context (the person's profile,
custom instructions and memories) kept but marked hidden, files named ``file-<id>.dat``
with an index of their names, documents listed only in a message's metadata, messages
without metadata (the model is the conversation's), and conversations without a
``current_node``."""

from __future__ import annotations

import base64
import copy
from typing import Any

import orjson

from providers import formats
from providers.formats.base import ParseResult
from providers.umf import Conversation, DocumentBlock, ImageBlock, TextBlock, main_path
from tests.providers.sdk.archive import FIXTURES, PNG, load, results, stored, zip_bytes

FORMAT = formats.get("chatgpt-export")
ENTRY = load(FIXTURES / "chatgpt-export" / "export_2026_hidden_context.json")[0]
HIDDEN = ["sys-2026-0001", "sys-2026-0002", "ctx-2026-0003", "mem-2026-0004"]
PRIVATE = ["Robin", "Lyon", "metric units", "half marathon.", "Knowledge cutoff"]
IMAGE = "file_000000001d2a61f4b7c3e0a9d8f2c111"
PDF = b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def read(entry: dict[str, Any]) -> ParseResult:
    [item] = FORMAT.parse([entry])
    return item


def test_hidden_context_is_read_as_hidden_messages() -> None:
    conversation = read(ENTRY).conversation
    assert [m.id for m in conversation.messages if m.hidden] == HIDDEN
    profile = conversation.messages[2]
    assert profile.role == "user" and "Preferred name: Robin" in profile.content[0].text  # type: ignore[union-attr]
    visible = [m.id for m in main_path(conversation) if not m.hidden]
    assert visible[0] == "usr-2026-0005" and visible[-1] == "ans-2026-0012"


def test_hidden_context_round_trips_exactly_and_umf_says_it_is_hidden() -> None:
    conversation = stored(read(ENTRY).conversation)
    assert FORMAT.render_all([conversation]).payload == [ENTRY]
    umf = formats.get("umf").render(conversation).payload
    assert [m.get("hidden") for m in umf["messages"][:5]] == [True, True, True, True, None]
    [again] = formats.get("umf").parse(umf)
    assert [m.id for m in again.conversation.messages if m.hidden] == HIDDEN


def test_other_formats_leave_hidden_context_out_with_a_note_for_each_message() -> None:
    conversation = stored(read(ENTRY).conversation)
    for target in ("openai-chat", "anthropic", "gemini", "claude-export", "sharegpt"):
        rendered = formats.get(target).render(conversation)
        text = orjson.dumps(rendered.payload).decode()
        assert not [word for word in PRIVATE if word in text], target
        notes = [w for w in rendered.warnings if "hidden context" in w.message]
        assert [(w.field, w.severity) for w in notes] == [
            (f"messages[{index}]", "info") for index in range(4)
        ], target
        # The other warnings still name messages by their place in the stored conversation.
        fields = [w.field or "" for w in rendered.warnings if w not in notes]
        assert not [f for f in fields if f.startswith(("messages[0]", "messages[1]."))], target


def test_the_children_of_hidden_context_hang_from_the_nearest_visible_message() -> None:
    conversation = stored(read(ENTRY).conversation)
    [payload] = formats.get("umf").render_all([conversation]).payload["messages"][4:5]
    assert payload["parent_id"] == "mem-2026-0004"
    rendered = formats.get("openai-chat").render(conversation).payload
    assert rendered["messages"][0]["role"] == "user"


def test_a_foreign_hidden_message_is_written_hidden_in_an_export() -> None:
    conversation = read(ENTRY).conversation
    foreign = Conversation(
        messages=[m.model_copy(update={"extra": {}}) for m in conversation.messages]
    )
    entry = FORMAT.render(foreign).payload[0]
    hidden = [
        key
        for key, node in entry["mapping"].items()
        if (node.get("message") or {})
        .get("metadata", {})
        .get("is_visually_hidden_from_conversation")
    ]
    assert len(hidden) == 4


def test_the_conversation_model_is_its_default_model_when_messages_name_none() -> None:
    assert read(ENTRY).conversation.parameters.model == "gpt-5-thinking"
    automatic = {**ENTRY, "default_model_slug": "auto"}
    item = read(automatic)
    assert item.conversation.parameters.model is None
    assert FORMAT.render(stored(item.conversation)).payload == [automatic]


def test_documents_listed_only_in_metadata_become_named_file_blocks() -> None:
    user = read(ENTRY).conversation.messages[4]
    image, text, pdf, sheet = user.content
    assert isinstance(image, ImageBlock) and image.source.file_id == IMAGE
    assert isinstance(text, TextBlock) and text.text.startswith("Here is my training plan")
    assert isinstance(pdf, DocumentBlock) and isinstance(sheet, DocumentBlock)
    assert (pdf.filename, pdf.source.type, pdf.source.file_id) == (
        "training-plan.pdf",
        "file",
        "file-PlanPdf2026aa",
    )
    assert pdf.source.media_type == "application/pdf" and sheet.filename == "splits.xlsx"


def test_a_2026_zip_gives_dat_files_their_media_type_from_the_index_then_the_bytes() -> None:
    index = [{"file_id": f"sediment://{IMAGE}", "file_name": "watch.png"}]
    archive = zip_bytes(
        {
            "user.json": b'{"id": "user-1"}',
            "conversation_asset_file_names.json": orjson.dumps(index),
            "conversations-000.json": orjson.dumps([ENTRY]),
            f"{IMAGE}.dat": base64.b64decode(PNG),
            "file-PlanPdf2026aa.dat": PDF,
        }
    )
    [item] = results(FORMAT, archive)
    assert isinstance(item, ParseResult)
    image, _, pdf, sheet = item.conversation.messages[4].content
    assert isinstance(image, ImageBlock) and image.source.media_type == "image/png"
    assert image.source.data == PNG
    assert isinstance(pdf, DocumentBlock) and pdf.source.type == "base64"
    assert base64.b64decode(pdf.source.data or "") == PDF
    assert sheet.source.type == "file"  # type: ignore[union-attr]
    assert FORMAT.render(stored(item.conversation)).payload == [ENTRY]


def test_the_bytes_decide_when_nothing_names_the_file() -> None:
    entry = copy.deepcopy(ENTRY)
    del entry["mapping"]["usr-2026-0005"]["message"]["metadata"]
    archive = zip_bytes({"conversations.json": orjson.dumps([entry]), f"{IMAGE}.dat": PDF})
    [item] = results(FORMAT, archive)
    assert isinstance(item, ParseResult)
    image = item.conversation.messages[4].content[0]
    assert isinstance(image, ImageBlock) and image.source.media_type == "application/pdf"


def test_without_a_current_node_the_most_recent_answer_is_the_main_thread() -> None:
    branches = load(FIXTURES / "chatgpt-export" / "branches_regenerated.json")
    entry = {key: value for key, value in branches[0].items() if key != "current_node"}
    item = read(entry)
    assert main_path(item.conversation)[-1].id == "c9b8a7d6-1111-4e00-8000-000000000007"
    [warning] = [w for w in item.warnings if (w.field or "").endswith("current_node")]
    assert warning.category == "parameter-defaulted" and warning.severity == "warning"
    assert warning.transformed_value == "c9b8a7d6-1111-4e00-8000-000000000007"
    assert FORMAT.render(stored(item.conversation)).payload == [entry]

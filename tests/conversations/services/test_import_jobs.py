"""Background imports of files: upload, progress, per-item results, never twice."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import orjson
import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from conversations import models
from tests.conftest import FIXTURES, load_fixture
from tests.conversations.helpers import run_upload, upload

pytestmark = pytest.mark.django_db


def test_a_file_is_imported_in_the_background(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    content = (FIXTURES / "umf" / "weather-tools.json").read_bytes()
    job = run_upload(api, django_capture_on_commit_callbacks, "weather.json", content)

    assert job["status"] == "succeeded"
    assert job["format"] == "umf"
    assert (job["processed"], job["created"], job["failed"]) == (1, 1, 0)
    [item] = job["items"]
    assert item["status"] == "created" and item["title"] == "Umbrella for Paris and Tokyo?"
    conversation = models.Conversation.objects.get(pk=item["conversation"])
    assert conversation.message_count == 6


def test_the_same_file_again_adds_nothing(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    content = (FIXTURES / "umf" / "weather-tools.json").read_bytes()
    run_upload(api, django_capture_on_commit_callbacks, "weather.json", content)
    again = run_upload(api, django_capture_on_commit_callbacks, "weather.json", content)

    assert (again["created"], again["unchanged"]) == (0, 1)
    assert models.Conversation.objects.count() == 1


def test_a_file_imported_by_job_and_by_the_api_is_one_conversation(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    payload = load_fixture("umf/weather-tools.json")
    api.post("/api/v1/conversations/import", {"format": "umf", "payload": payload}, format="json")
    job = run_upload(
        api, django_capture_on_commit_callbacks, "w.json", orjson.dumps(payload), "umf"
    )
    assert job["unchanged"] == 1
    assert models.Conversation.objects.count() == 1


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        ("broken.json", b'{"messages": [', "not valid JSON"),
        ("unknown.json", b'{"what": "is this"}', "could not detect"),
        ("empty.zip", b"PK\x05\x06" + b"\x00" * 18, "no JSON file"),
    ],
)
def test_an_unreadable_file_fails_the_job_with_a_reason(
    api: APIClient, django_capture_on_commit_callbacks: Any, name: str, content: bytes, error: str
) -> None:
    job = run_upload(api, django_capture_on_commit_callbacks, name, content)
    assert job["status"] == "failed"
    assert error in job["error"]
    assert models.Conversation.objects.count() == 0


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b'[{"role": "user", "role": "assistant", "content": "a"}]', "duplicate key at [0].role"),
        (b'[{"role": "user", "content": "a", "n": 123456789012345678901234567890}]', "64 bits"),
    ],
)
def test_a_file_of_one_conversation_follows_the_apis_json_rules(
    api: APIClient, django_capture_on_commit_callbacks: Any, content: bytes, error: str
) -> None:
    job = run_upload(api, django_capture_on_commit_callbacks, "one.json", content, "umf")
    assert job["status"] == "failed"
    assert error in job["error"]
    assert models.Conversation.objects.count() == 0


def test_a_conversation_with_a_nul_character_is_a_failed_item_the_others_import(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    # PostgreSQL cannot store a NUL: the whole batch used to fail with a database error.
    lines = [
        {"messages": [{"role": "user", "content": "fine"}, {"role": "assistant", "content": "ok"}]},
        {"messages": [{"role": "user", "content": "a\u0000b"}]},
        {"messages": [{"role": "user", "content": "also fine"}]},
    ]
    content = b"\n".join(orjson.dumps(line) for line in lines)
    job = run_upload(api, django_capture_on_commit_callbacks, "f.jsonl", content, "openai-finetune")
    assert job["status"] == "succeeded"
    assert (job["created"], job["failed"]) == (2, 1)
    failed = next(item for item in job["items"] if item["status"] == "failed")
    assert failed["index"] == 1
    assert "NUL character" in failed["error"]
    assert failed["field"] == "messages[0].content[0].text"
    assert models.Conversation.objects.count() == 2


@pytest.mark.parametrize(("name", "field"), [("d.json", "[1].n"), ("d.jsonl", "line 2.n")])
def test_an_entry_with_an_integer_beyond_64_bits_is_a_failed_item(
    api: APIClient, django_capture_on_commit_callbacks: Any, name: str, field: str
) -> None:
    # orjson would have read it as a float: the archive would hold another number.
    chat = [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "hello"}]
    fine = orjson.dumps({"conversations": chat})
    big = orjson.dumps({"conversations": chat}).replace(
        b"{", b'{"n":123456789012345678901234567890,', 1
    )
    content = b"[" + fine + b"," + big + b"]" if name.endswith(".json") else fine + b"\n" + big
    job = run_upload(api, django_capture_on_commit_callbacks, name, content, "sharegpt")
    assert (job["status"], job["created"], job["failed"]) == ("succeeded", 1, 1)
    failed = job["items"][1]
    assert failed["status"] == "failed" and failed["field"] == field
    assert "beyond 64 bits" in failed["error"]


def test_an_upload_over_the_limit_is_413(api: APIClient, settings: Any) -> None:
    settings.MAX_IMPORT_BYTES = 100
    response = upload(api, "big.json", b"[" + b" " * 500 + b"]")
    assert response.status_code == 413
    assert models.ImportJob.objects.count() == 0


def test_an_unknown_format_is_400(api: APIClient) -> None:
    response = upload(api, "x.json", b"[]", fmt="word-doc")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "format"


def test_jobs_are_private(
    api: APIClient, bob_api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    content = (FIXTURES / "umf" / "weather-tools.json").read_bytes()
    job = run_upload(api, django_capture_on_commit_callbacks, "weather.json", content)
    assert bob_api.get(f"/api/v1/imports/{job['id']}").status_code == 404
    assert bob_api.get("/api/v1/imports/").json() == []


def test_the_import_and_export_commands(alice: Any, tmp_path: Path) -> None:
    source = tmp_path / "weather.json"
    source.write_bytes((FIXTURES / "umf" / "weather-tools.json").read_bytes())
    output = io.StringIO()
    call_command("import_conversations", str(source), "--user", "alice", stdout=output)
    assert "1 created" in output.getvalue()

    call_command("import_conversations", str(source), "--user", "alice", stdout=output)
    assert "1 unchanged" in output.getvalue()

    out_dir = tmp_path / "out"
    call_command("export_conversations", "--format", "umf", "--out", str(out_dir), stdout=output)
    [exported] = list(out_dir.iterdir())
    assert orjson.loads(exported.read_bytes()) == load_fixture("umf/weather-tools.json")

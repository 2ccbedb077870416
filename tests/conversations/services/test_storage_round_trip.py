"""Every fixture of every format survives import -> PostgreSQL rows -> export, exactly."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from rest_framework.test import APIClient

from providers import formats

FIXTURES = Path(__file__).parents[2] / "fixtures"
KNOWN = {fmt.id for fmt in formats.all_formats()}
CASES = [
    path
    for directory in sorted(FIXTURES.iterdir())
    if directory.is_dir() and directory.name in KNOWN
    for path in sorted(directory.glob("*.json"))
]

# Both ways of reading a conversation back (conversations.pgsql and the ORM).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("statements")]


def canonical(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_import_then_export_gives_back_the_payload(api: APIClient, path: Path) -> None:
    format_id = path.parent.name
    payload = orjson.loads(path.read_bytes())
    imported = api.post(
        "/api/v1/conversations/import", {"format": format_id, "payload": payload}, format="json"
    )
    assert imported.status_code == 201, imported.json()
    pk = imported.json()["conversations"][0]["id"]

    exported = api.get(f"/api/v1/conversations/{pk}/export", {"format": format_id})

    assert exported.status_code == 200
    assert canonical(exported.json()["payload"]) == canonical(payload)


def test_every_registered_format_with_fixtures_is_covered() -> None:
    assert {path.parent.name for path in CASES} >= {"umf"}


def test_a_tree_without_parents_on_its_first_messages_exports_as_it_converts(
    api: APIClient,
) -> None:
    # The system prompt and the question name no parent; the two answers name the question.
    # Stored, the question follows the system prompt; converted, it must too.
    tree = {
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
            {"role": "user", "id": "q", "content": [{"type": "text", "text": "Hi"}]},
            {"role": "assistant", "id": "a1", "parent_id": "q", "content": "Hello A"},
            {"role": "assistant", "id": "a2", "parent_id": "q", "content": "Hello B"},
        ]
    }
    converted = api.post(
        "/api/v1/convert", {"from": "umf", "to": "openai-chat", "payload": tree}, format="json"
    )
    imported = api.post(
        "/api/v1/conversations/import", {"format": "umf", "payload": tree}, format="json"
    )
    pk = imported.json()["conversations"][0]["id"]
    exported = api.get(f"/api/v1/conversations/{pk}/export", {"format": "openai-chat"})

    assert converted.status_code == exported.status_code == 200
    assert converted.json()["payload"]["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "Hello B"},
    ]
    assert exported.json()["payload"] == converted.json()["payload"]
    assert [w["field"] for w in converted.json()["warnings"]] == [
        w["field"] for w in exported.json()["warnings"]
    ]

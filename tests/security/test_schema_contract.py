"""What the schema fuzzer found, pinned one by one: the schema documents every answer,
and the answers it could not describe are 4xx with the field, never 5xx nor a row."""

from __future__ import annotations

import io
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from conversations import models

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    generator = SchemaGenerator()  # type: ignore[no-untyped-call]
    return generator.get_schema(request=None, public=True)  # type: ignore[no-any-return,no-untyped-call]


def operations(openapi: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in openapi["paths"].items()
        if path.startswith("/api/v1/")
        for method, operation in item.items()
    ]


def test_every_operation_documents_its_errors_in_the_error_shape(openapi: dict[str, Any]) -> None:
    for method, path, operation in operations(openapi):
        errors = {code: r for code, r in operation["responses"].items() if code.startswith("4")}
        assert {"401", "403"} <= errors.keys(), (method, path)
        for code, response in errors.items():
            schema = response["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorOutput"}, (method, path, code)
        if method == "POST":
            assert {"400", "413", "415", "422"} <= errors.keys(), path
            assert operation["requestBody"]["required"] is True, path
        if "{id}" in path:
            assert "404" in errors, (method, path)


def test_object_ids_in_paths_are_uuids(openapi: dict[str, Any]) -> None:
    for _, path, operation in operations(openapi):
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path":
                assert parameter["schema"] == {"type": "string", "format": "uuid"}, path


def test_the_list_is_documented_as_the_page_it_returns(openapi: dict[str, Any]) -> None:
    responses = openapi["paths"]["/api/v1/conversations/"]["get"]["responses"]
    ref = responses["200"]["content"]["application/json"]["schema"]["$ref"]
    page = openapi["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(page["properties"]) == {"next", "previous", "results"}


def test_format_ids_are_enums_and_convert_answers_under_from(openapi: dict[str, Any]) -> None:
    components = openapi["components"]["schemas"]
    assert "auto" in components["SourceFormatEnum"]["enum"]
    assert "auto" not in components["TargetFormatEnum"]["enum"]
    assert "anthropic" in components["TargetFormatEnum"]["enum"]
    assert set(components["ConvertOutput"]["required"]) == {"from", "to", "payload", "warnings"}


def test_an_unknown_cursor_is_422_naming_it(api: APIClient) -> None:
    response = api.get("/api/v1/conversations/?cursor=0")
    assert response.status_code == 422
    assert response.json()["error"] == {
        "code": "invalid_cursor",
        "message": "not a cursor this API gave out",
        "field": "cursor",
    }


@pytest.mark.parametrize("query", ["format=", "tool=", "q=%20%20", "model=%09", "provider=a%00"])
def test_blank_filters_are_400_naming_them(api: APIClient, query: str) -> None:
    response = api.get(f"/api/v1/conversations/?{query}")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == query.split("=")[0]


def test_a_blank_replay_filter_is_400(api: APIClient) -> None:
    response = api.get("/api/v1/replays/?conversation=")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "conversation"


PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010800000000")


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("image.png", PNG, "the file is a .png file (image/png), not conversations: upload"),
        ("data.bin", bytes(range(256)) * 4, "the file is binary data, not conversations"),
        ("fake.zip", b"PK\x03\x04 this is no archive", "cut short or damaged"),
        ("empty.json", b"", "the file is empty: upload conversations.json, a .zip"),
    ],
)
def test_an_unreadable_upload_is_422_before_any_job(
    api: APIClient, name: str, content: bytes, reason: str
) -> None:
    file = io.BytesIO(content)
    file.name = name
    response = api.post("/api/v1/imports/", {"file": file}, format="multipart")
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("unreadable_file", "file")
    assert reason in error["message"]
    assert models.ImportJob.objects.count() == 0


def test_a_blank_upload_format_is_400(api: APIClient) -> None:
    file = io.BytesIO(b"[]")
    file.name = "a.json"
    response = api.post("/api/v1/imports/", {"file": file, "format": ""}, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "format"
    assert models.ImportJob.objects.count() == 0

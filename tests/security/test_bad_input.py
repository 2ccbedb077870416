"""The bad-input corpus (``bad_inputs.py``): each case is a 4xx JSON error naming the
field and the reason, and writes nothing. Its timings are measured by bench/bad_input.py."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from django.apps import apps
from rest_framework.test import APIClient

from conversations import models
from fakes import bad_inputs
from fakes.bad_inputs import BadInput

pytestmark = pytest.mark.django_db

CASES = bad_inputs.corpus(include_huge=False)


def row_counts() -> dict[str, int]:
    return {model.__name__: model._default_manager.count() for model in apps.get_models()}


@pytest.fixture
def conversation_id(api: APIClient) -> str:
    body = {"format": "umf", "payload": [{"role": "user", "content": "a question?"}]}
    response = api.post("/api/v1/conversations/import", body, format="json")
    return str(response.json()["conversations"][0]["id"])


@pytest.fixture(autouse=True)
def no_rate_limits(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"imports": "100000/min", "replays": "100000/min"},
    }


def send(api: APIClient, case: BadInput, conversation_id: str) -> Any:
    return api.generic("POST", case.url(conversation_id), case.body, case.content_type)  # type: ignore[arg-type]


def assert_refused(response: Any, case: BadInput) -> None:
    assert response.status_code in case.statuses, (case.name, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), case.name
    error = orjson.loads(response.content)["error"]
    assert error["code"] and error["message"], case.name
    assert error["field"], (case.name, error)
    if case.field is not None:
        assert error["field"] == case.field, (case.name, error)


def test_the_corpus_covers_every_kind_of_bad_input() -> None:
    names = " ".join(case.name for case in bad_inputs.corpus(include_huge=False))
    for kind in ("truncated", "UTF-8", "BOM", "NaN", "duplicate key", "10,000 deep"):
        assert kind in names
    assert {case.path for case in CASES} >= {
        bad_inputs.IMPORT,
        bad_inputs.BATCH,
        bad_inputs.CONVERT,
        bad_inputs.REPLAYS,
        bad_inputs.UPLOAD,
    }
    for format_id in bad_inputs.format_ids():
        assert any(case.name.startswith(f"{format_id} ") for case in CASES), format_id
    assert len(CASES) >= 200


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_bad_input_is_refused_and_writes_nothing(
    api: APIClient, conversation_id: str, case: BadInput
) -> None:
    before = row_counts()
    response = send(api, case, conversation_id)
    assert_refused(response, case)
    assert row_counts() == before, case.name


def test_a_50_mb_message_is_refused_and_writes_nothing(
    api: APIClient, conversation_id: str
) -> None:
    case = bad_inputs.huge_message_case()
    before = row_counts()
    assert_refused(send(api, case, conversation_id), case)
    assert row_counts() == before


def test_a_utf8_bom_is_accepted(api: APIClient) -> None:
    body = b"\xef\xbb\xbf" + orjson.dumps(bad_inputs.VALID_BODIES[bad_inputs.IMPORT])
    response = api.generic("POST", bad_inputs.IMPORT, body, "application/json")  # type: ignore[arg-type]
    assert response.status_code == 201
    assert models.Conversation.objects.count() == 1


def test_the_valid_bodies_the_corpus_breaks_are_accepted(
    api: APIClient, conversation_id: str
) -> None:
    # Otherwise a case could be refused for a reason that has nothing to do with its break.
    for path, body in bad_inputs.VALID_BODIES.items():
        url = path.replace(bad_inputs.CONVERSATION, conversation_id)
        response = api.post(url, body, format="json")
        assert response.status_code < 300, (path, response.content[:300])

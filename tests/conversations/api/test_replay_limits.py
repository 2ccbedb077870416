"""What one user may make a replay cost the operator (issue 21): only the models a
provider offers, only the parameters its operator allows, answers and tokens clamped in
every request with a warning that says so, a cap on the turns of mode ``each``, and a
daily budget of provider calls per user (429 with Retry-After)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from conversations import models
from tests.conftest import load_fixture

pytestmark = pytest.mark.django_db

ECHO = {"name": "echo", "kind": "echo", "base_url": "", "models": ["echo-1"]}


def import_umf(api: APIClient, payload: Any) -> str:
    response = api.post(
        "/api/v1/conversations/import", {"format": "umf", "payload": payload}, format="json"
    )
    assert response.status_code == 201, response.json()
    return str(response.json()["conversations"][0]["id"])


@pytest.fixture
def weather(api: APIClient) -> str:
    return import_umf(api, load_fixture("umf/weather-tools.json"))


def start(api: APIClient, conversation: str, **body: Any) -> Any:
    body = {"provider": "echo", "model": "echo-1", **body}
    return api.post(f"/api/v1/conversations/{conversation}/replays", body, format="json")


def many_turns(count: int) -> list[dict[str, str]]:
    messages = []
    for index in range(count):
        messages += [
            {"role": "user", "content": f"question {index}"},
            {"role": "assistant", "content": f"answer {index}"},
        ]
    return messages


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"model": "o1-pro"}, "model", "'o1-pro' is not offered by echo; choose one of: echo-1"),
        ({"parameters": {"n": 128}}, "parameters.n", "parameter 'n' may not be set for echo"),
        ({"parameters": {"logit_bias": {}}}, "parameters.logit_bias", "allowed: frequency_"),
    ],
)
def test_a_model_or_parameter_the_operator_did_not_allow_is_refused(
    api: APIClient, weather: str, body: dict[str, Any], field: str, words: str
) -> None:
    response = start(api, weather, **body)
    assert response.status_code == 422, response.json()
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("invalid_replay", field)
    assert words in error["message"]
    assert models.ReplayRun.objects.count() == 0


def test_the_operator_may_allow_more(api: APIClient, weather: str, settings: Any) -> None:
    settings.UMF_PROVIDERS = [{**ECHO, "models": [], "parameters": ["n", "temperature"]}]
    response = start(api, weather, model="any-model", parameters={"n": 2})
    assert response.status_code == 202, response.json()


def test_tokens_and_answers_above_the_caps_are_clamped_with_a_warning(
    api: APIClient, weather: str, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.UMF_PROVIDERS = [{**ECHO, "parameters": ["max_tokens", "n"], "max_tokens": 1000}]
    with django_capture_on_commit_callbacks(execute=True):
        response = start(api, weather, parameters={"max_tokens": 10**9, "n": 128})
    assert response.status_code == 202, response.json()
    run = models.ReplayRun.objects.get(pk=response.json()["id"])
    [turn] = run.turns.all()
    assert turn.status == "succeeded", turn.error
    assert turn.request["parameters"]["max_tokens"] == 1000
    assert turn.request["parameters"]["custom"]["n"] == 1
    clamped = models.DriftWarning.objects.filter(replay_run=run, category="parameter-clamped")
    assert sorted(str(w.field) for w in clamped) == ["parameters.custom.n", "parameters.max_tokens"]
    assert any("1000000000 lowered to 1000" in w.text for w in clamped)


def test_a_stored_conversation_cannot_smuggle_a_huge_limit_past_the_clamp(
    api: APIClient, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.UMF_PROVIDERS = [{**ECHO, "max_tokens": 500}]
    payload = {"messages": [{"role": "user", "content": "hi"}], "parameters": {"max_tokens": 10**8}}
    conversation = import_umf(api, payload)
    with django_capture_on_commit_callbacks(execute=True):
        response = start(api, conversation)
    turn = models.ReplayTurn.objects.get(run_id=response.json()["id"])
    assert turn.request["parameters"]["max_tokens"] == 500


def test_mode_each_is_capped(api: APIClient, settings: Any) -> None:
    settings.REPLAY_MAX_TURNS = 5
    conversation = import_umf(api, many_turns(6))
    response = start(api, conversation, mode="each")
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "mode"
    assert (
        "would regenerate 6 turns; the most one run may is 5" in response.json()["error"]["message"]
    )
    assert start(api, import_umf(api, many_turns(5)), mode="each").status_code == 202


def test_the_daily_budget_answers_429_with_retry_after(
    api: APIClient, bob_api: APIClient, settings: Any
) -> None:
    settings.REPLAY_DAILY_CALLS = 7
    conversation = import_umf(api, many_turns(4))
    assert start(api, conversation, mode="each").status_code == 202  # 4 calls
    assert start(api, conversation).status_code == 202  # 5
    refused = start(api, conversation, mode="each")  # 4 more: 9 > 7
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "replay_budget_spent" and error["field"] == "provider"
    assert "needs 4 provider call(s) and 2 of today's 7 are left" in error["message"]
    assert 0 < int(refused["Retry-After"]) <= 86_400
    # What is left can still be spent, and another user has a budget of their own.
    assert start(api, conversation).status_code == 202
    assert start(bob_api, import_umf(bob_api, many_turns(4)), mode="each").status_code == 202


def test_providers_say_what_a_replay_may_ask(api: APIClient) -> None:
    [echo] = [p for p in api.get("/api/v1/providers/").json() if p["name"] == "echo"]
    assert echo["models"] == ["echo-1"]
    assert echo["max_tokens"] == 8192 and echo["max_n"] == 1
    assert "temperature" in echo["parameters"] and "n" not in echo["parameters"]

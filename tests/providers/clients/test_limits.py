"""The clamps every request passes before it is sent: each provider's own words for how
many tokens and answers it asks for, lowered to the operator's caps, one warning each."""

from __future__ import annotations

from typing import Any

import pytest

from providers.clients.limits import clamp_request, model_refusal, parameter_refusal


@pytest.mark.parametrize(
    ("format_id", "payload", "clamped"),
    [
        ("openai-chat", {"max_tokens": 9000, "n": 4}, {"max_tokens": 100, "n": 1}),
        ("openai-chat", {"max_completion_tokens": 9000}, {"max_completion_tokens": 100}),
        ("openai-responses", {"max_output_tokens": 9000}, {"max_output_tokens": 100}),
        ("anthropic", {"max_tokens": 101}, {"max_tokens": 100}),
        (
            "gemini",
            {"generationConfig": {"maxOutputTokens": 1e9, "candidateCount": 8}},
            {"generationConfig": {"maxOutputTokens": 100, "candidateCount": 1}},
        ),
        ("ollama", {"options": {"num_predict": 5000}}, {"options": {"num_predict": 100}}),
        (
            "umf",
            {"parameters": {"max_tokens": 500, "custom": {"n": 3}}},
            {"parameters": {"max_tokens": 100, "custom": {"n": 1}}},
        ),
    ],
)
def test_each_provider_s_limits_are_clamped(
    format_id: str, payload: dict[str, Any], clamped: dict[str, Any]
) -> None:
    warnings = clamp_request(format_id, payload, max_tokens=100, max_n=1)
    assert payload == clamped
    assert {w.category for w in warnings} == {"parameter-clamped"}
    assert len(warnings) == sum(1 for value in _leaves(clamped) if value in (100, 1))
    assert all(w.transformed_value in (100, 1) and w.field for w in warnings)


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for inner in value.values() for leaf in _leaves(inner)]
    return [value]


@pytest.mark.parametrize(
    "payload",
    [
        {"max_tokens": 100, "n": 1},  # at the caps
        {"max_tokens": "lots"},  # not a number: the provider refuses it, not us
        {"max_tokens": True},
        {},
    ],
)
def test_what_is_within_the_caps_is_left_alone(payload: dict[str, Any]) -> None:
    before = dict(payload)
    assert clamp_request("openai-chat", payload, max_tokens=100, max_n=1) == []
    assert payload == before


def test_models_and_parameters() -> None:
    assert model_refusal(("a", "b"), "p", "a") is None
    assert model_refusal((), "local", "anything") is None  # no list: the operator's server decides
    assert (
        model_refusal(("a",), "p", "o1-pro")
        == "model 'o1-pro' is not offered by p; choose one of: a"
    )
    assert parameter_refusal(frozenset({"temperature"}), "p", {"temperature": 1}) is None
    field, message = parameter_refusal(frozenset({"temperature"}), "p", {"n": 9}) or ("", "")
    assert field == "parameters.n" and "allowed: temperature" in message

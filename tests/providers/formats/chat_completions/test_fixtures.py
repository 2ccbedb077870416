"""What every chat-completions format's fixtures hold to, parametrised over the five
(openai-chat, openai-responses, ollama, cohere, mistral): enough of them, exact round
trips, what the provider's SDK accepts and the shape recorded. Detection, for every
format's fixtures, is in ``test_detection.py``.

Each format's own reading and writing is tested in its directory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from providers import formats
from tests.providers.formats.chat_completions._helpers import (
    canonical,
    fixtures_of,
    load,
    shape_of,
    stored,
)
from tests.providers.sdk.cohere import (
    check_cohere_rules,
    validate_cohere_request,
    validate_cohere_response,
)
from tests.providers.sdk.mistral import (
    check_mistral_rules,
    validate_mistral_request,
    validate_mistral_response,
)
from tests.providers.sdk.ollama import validate_ollama_request, validate_ollama_response
from tests.providers.sdk.openai_responses import (
    check_openai_responses_rules,
    validate_openai_responses_items,
    validate_openai_responses_request,
    validate_openai_responses_response,
)
from tests.providers.sdk_validation import (
    validate_openai_chat_request,
    validate_openai_chat_response,
)

Check = Callable[[Any], Any]


@dataclass(frozen=True)
class Sdk:
    """How a format's SDK takes a fixture: ``request`` and ``response`` validate those,
    ``messages`` a bare message list, ``rules`` checks a request for what the types do not
    say."""

    request: Check
    response: Check
    messages: Check
    rules: Check | None = None


def _all(*checks: Check) -> Check:
    return lambda payload: [check(payload) for check in checks]


def _in_request(model: str, *checks: Check) -> Check:
    return lambda messages: _all(*checks)({"model": model, "messages": messages})


SDKS = {
    "openai-chat": Sdk(
        validate_openai_chat_request,
        validate_openai_chat_response,
        _in_request("gpt-4o", validate_openai_chat_request),
    ),
    "openai-responses": Sdk(
        validate_openai_responses_request,
        validate_openai_responses_response,
        _all(validate_openai_responses_items, check_openai_responses_rules),
        check_openai_responses_rules,
    ),
    "ollama": Sdk(
        validate_ollama_request,
        validate_ollama_response,
        _in_request("llama3.2", validate_ollama_request),
    ),
    "cohere": Sdk(
        validate_cohere_request,
        validate_cohere_response,
        _in_request("command-a-03-2025", validate_cohere_request, check_cohere_rules),
        check_cohere_rules,
    ),
    "mistral": Sdk(
        validate_mistral_request,
        validate_mistral_response,
        _in_request("mistral-large-latest", validate_mistral_request, check_mistral_rules),
        check_mistral_rules,
    ),
}
FAMILY = tuple(SDKS)
CASES = [(format_id, path) for format_id in FAMILY for path in fixtures_of(format_id)]
# Fixtures that are read with a warning (and written back exactly all the same).
READ_WITH_WARNINGS = {("openai-chat", "legacy_functions"), ("ollama", "tool_loop_parallel")}


def _case_id(case: tuple[str, Path]) -> str:
    return f"{case[0]}/{case[1].stem}"


@pytest.mark.parametrize("format_id", FAMILY)
def test_there_are_enough_fixtures(format_id: str) -> None:
    assert len(fixtures_of(format_id)) >= 6


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_round_trips_exactly(case: tuple[str, Path]) -> None:
    format_id, path = case
    payload, fmt = load(path), formats.get(format_id)
    [item] = fmt.parse(payload)
    assert bool(item.warnings) == ((format_id, path.stem) in READ_WITH_WARNINGS)
    for candidate in (item.conversation, stored(item.conversation)):
        rendered = fmt.render(candidate)
        assert canonical(rendered.payload) == canonical(payload)
        assert rendered.warnings == []


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_fixture_is_what_the_sdk_accepts(case: tuple[str, Path]) -> None:
    format_id, path = case
    payload, sdk = load(path), SDKS[format_id]
    [item] = formats.get(format_id).parse(payload)
    shape = shape_of(format_id, item.conversation)
    if shape == "messages":
        sdk.messages(payload)
    if shape in ("request", "exchange"):
        request = payload["request"] if shape == "exchange" else payload
        sdk.request(request)
        if sdk.rules is not None:
            sdk.rules(request)
    if shape in ("response", "exchange"):
        sdk.response(payload["response"] if shape == "exchange" else payload)


@pytest.mark.parametrize(
    ("format_id", "name", "shape"),
    [
        ("openai-chat", "tool_loop_parallel", "request"),
        ("openai-chat", "bare_messages", "messages"),
        ("openai-chat", "exchange_usage", "exchange"),
        ("openai-chat", "bare_response", "response"),
        ("openai-responses", "tool_loop_parallel", "request"),
        ("openai-responses", "bare_items_custom_tool", "messages"),
        ("openai-responses", "exchange_reasoning_usage", "exchange"),
        ("openai-responses", "bare_response_web_search", "response"),
        ("ollama", "tool_loop_parallel", "request"),
        ("ollama", "bare_messages", "messages"),
        ("ollama", "thinking_exchange", "exchange"),
        ("ollama", "bare_response_tool_calls", "response"),
        ("cohere", "tool_loop_documents", "request"),
        ("cohere", "bare_messages", "messages"),
        ("cohere", "exchange_reasoning_usage", "exchange"),
        ("cohere", "bare_response", "response"),
        ("mistral", "magistral_thinking_tools", "request"),
        ("mistral", "bare_messages", "messages"),
        ("mistral", "exchange_usage", "exchange"),
    ],
)
def test_shape_is_recorded(format_id: str, name: str, shape: str) -> None:
    path = fixtures_of(format_id)[0].parent / f"{name}.json"
    [item] = formats.get(format_id).parse(load(path))
    assert shape_of(format_id, item.conversation) == shape

"""The fake provider server itself: its answers are valid by the providers' own SDK types,
and its script, log, key check, latency and seeded fault plan behave as documented."""

from __future__ import annotations

import time
from functools import cache
from typing import Any

import httpx
import orjson
import pydantic
import pytest

from fakes.provider_server import (
    Answer,
    FakeProviderServer,
    Fault,
    RandomFaults,
    ToolCall,
)
from fakes.wire import WIRES, Call, Frame

RICH = Answer(
    text="Paris is sunny.",
    thinking="Think first.",
    signature="c2lnbmF0dXJl",
    tool_calls=(ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {})),
    cached_tokens=3,
    reasoning_tokens=2,
    chunk_size=4,
)


@cache
def _adapter(provider: str, streaming: bool) -> pydantic.TypeAdapter[Any]:
    if provider == "openai-chat":
        from openai.types.chat import ChatCompletion, ChatCompletionChunk

        return pydantic.TypeAdapter(ChatCompletionChunk if streaming else ChatCompletion)
    if provider == "openai-responses":
        from openai.types.responses import Response, ResponseStreamEvent

        return pydantic.TypeAdapter(ResponseStreamEvent if streaming else Response)
    if provider == "anthropic":
        from anthropic.types import Message, RawMessageStreamEvent

        return pydantic.TypeAdapter(RawMessageStreamEvent if streaming else Message)
    if provider == "gemini":
        from google.genai.types import GenerateContentResponse

        return pydantic.TypeAdapter(GenerateContentResponse)
    from ollama import ChatResponse

    return pydantic.TypeAdapter(ChatResponse)


def frame_payloads(frames: list[Frame]) -> list[Any]:
    payloads = []
    for frame in frames:
        for line in frame.data.decode().splitlines():
            data = line.removeprefix("data: ") if line.startswith("data: ") else line
            if line.startswith("event: ") or not line or data == "[DONE]":
                continue
            payloads.append(orjson.loads(data))
    return payloads


@pytest.mark.parametrize("provider", sorted(WIRES))
@pytest.mark.parametrize("answer", [RICH, Answer(), Answer(text="", finish="length")])
def test_answers_are_valid_by_the_provider_sdk(provider: str, answer: Answer) -> None:
    wire = WIRES[provider]
    call = Call(provider, "model-x", stream=False, include_usage=True, key="k" * 24)
    _adapter(provider, streaming=False).validate_python(wire.plain(answer, call))
    frames = list(wire.frames(answer, call))
    assert frames[-1].terminal
    for payload in frame_payloads(frames):
        if payload.get("type") == "ping":  # Anthropic's keep-alive: no SDK type
            continue
        _adapter(provider, streaming=True).validate_python(payload)


def test_script_log_and_routes(server: FakeProviderServer) -> None:
    server.api_key = None
    server.script(Fault.server_error(), Answer(text="second"))
    with httpx.Client(base_url=server.url) as http:
        first = http.post("/v1/chat/completions", json={"model": "a", "messages": []})
        second = http.post("/v1/chat/completions", json={"model": "a", "messages": []})
        default = http.post("/api/chat", json={"model": "b", "messages": [], "stream": False})
        gemini = http.post("/v1beta/models/gem-1:generateContent", json={"contents": []})
        missing = http.post("/nowhere", json={})
    assert first.status_code == 500
    assert second.json()["choices"][0]["message"]["content"] == "second"
    assert default.json()["message"]["content"] == Answer().text
    assert gemini.json()["modelVersion"] == "gem-1"
    assert missing.status_code == 404
    log = server.requests
    assert [(r.provider, r.model, r.outcome) for r in log] == [
        ("openai-chat", "a", "500"),
        ("openai-chat", "a", "answer"),
        ("ollama", "b", "answer"),
        ("gemini", "gem-1", "answer"),
        (None, "", "not found"),
    ]
    assert log[0].json == {"model": "a", "messages": []}


def test_streams_are_chosen_as_each_provider_does(server: FakeProviderServer) -> None:
    server.api_key = None
    with httpx.Client(base_url=server.url) as http:
        http.post("/api/chat", json={"model": "b", "messages": []})
        http.post("/v1/messages", json={"model": "c", "messages": [], "stream": True})
        http.post("/v1beta/models/g:streamGenerateContent?alt=sse", json={"contents": []})
        http.post("/v1/responses", json={"model": "d", "input": "hi"})
    assert [r.stream for r in server.requests] == [True, True, True, False]
    assert server.requests[2].query == {"alt": ["sse"]}


def test_the_key_is_checked_in_each_providers_header(server: FakeProviderServer) -> None:
    server.api_key = "k1"
    with httpx.Client(base_url=server.url) as http:
        assert http.post("/v1/messages", json={}, headers={"x-api-key": "k1"}).status_code == 401
        ok = {"x-api-key": "k1", "anthropic-version": "2023-06-01"}
        assert http.post("/v1/messages", json={"model": "m"}, headers=ok).status_code == 200
        bearer = {"authorization": "Bearer k1"}
        path = "/v1beta/models/g:generateContent"
        assert http.post(path, json={}, headers=bearer).status_code == 401
        goog = {"x-goog-api-key": "k1"}
        assert http.post(path, json={}, headers=goog).status_code == 200
        assert http.post("/v1/responses", json={}, headers=bearer).status_code == 200


def test_responder_and_latency(server: FakeProviderServer) -> None:
    server.api_key = None
    server.latency = 0.05
    server.responder = lambda request: Answer(text=f"for {request.model}")
    with httpx.Client(base_url=server.url) as http:
        started = time.perf_counter()
        body = http.post("/v1/chat/completions", json={"model": "zz", "messages": []}).json()
        assert time.perf_counter() - started >= 0.05
    assert body["choices"][0]["message"]["content"] == "for zz"


def test_random_fault_plans_repeat_with_their_seed() -> None:
    def draws(seed: int) -> list[str | None]:
        plan = RandomFaults(seed=seed, rate=0.25)
        return [None if (fault := plan.draw()) is None else repr(fault) for _ in range(400)]

    first = draws(7)
    assert first == draws(7)
    assert first != draws(8)
    assert 60 <= sum(draw is not None for draw in first) <= 140


def test_a_fault_plan_applies_when_the_script_is_empty(server: FakeProviderServer) -> None:
    server.api_key = None
    server.fault_plan = RandomFaults(seed=1, rate=1.0, faults=[Fault.overloaded()])
    server.script(Answer(text="scripted first"))
    with httpx.Client(base_url=server.url) as http:
        statuses = [http.post("/v1/messages", json={"model": "m"}).status_code for _ in range(3)]
    assert statuses == [200, 529, 529]

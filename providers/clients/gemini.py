"""``gemini``: ``POST {base_url}/v1beta/models/{model}:generateContent`` with the key in
``x-goog-api-key`` (never in the URL, so that logs of URLs hold no key).

Streaming is ``:streamGenerateContent?alt=sse``: each ``data:`` event is a whole
``GenerateContentResponse`` holding the next parts; there is no ``[DONE]``, the chunk that
carries a ``finishReason`` is the last. Text arrives split across chunks, function calls
whole, and a signature may come on a part with empty text: the reader joins consecutive
text parts of the same kind (thought or not) until one carries a signature.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import orjson

from providers.clients._errors import error_from_event
from providers.clients._http import HttpClient, StreamReader, StreamState, decode_object
from providers.clients._stream import ChunkEmitter
from providers.umf import JSON

_LABEL = "Gemini"
_TEXT_KEYS = frozenset({"text", "thought", "thoughtSignature"})


class GeminiClient(HttpClient):
    """A client for the Gemini API (Google AI Studio keys)."""

    kind = "gemini"
    label = _LABEL
    model_in_body = False

    def endpoint(self, model: str, stream: bool) -> str:
        """The model's ``generateContent`` URL (``streamGenerateContent?alt=sse`` to stream)."""
        name = quote(model.removeprefix("models/"), safe="-._~")
        method = "streamGenerateContent?alt=sse" if stream else "generateContent"
        return f"{self.base_url}/v1beta/models/{name}:{method}"

    def credential_headers(self) -> dict[str, str]:
        """``x-goog-api-key``."""
        return {"x-goog-api-key": self.config.api_key} if self.config.api_key else {}

    def set_streaming(self, payload: dict[str, Any], stream: bool) -> None:
        """Gemini streams by URL, not by a body field."""
        payload.pop("stream", None)

    def stream_reader(self, emitter: ChunkEmitter) -> StreamReader:
        """A reader of ``alt=sse`` chunks."""
        return GenerateContentStream(emitter)


class GenerateContentStream(StreamState):
    """Joins streamed ``GenerateContentResponse`` chunks into one."""

    def __init__(self, emitter: ChunkEmitter) -> None:
        super().__init__(emitter)
        self._top: dict[str, Any] = {}
        self._candidates: dict[int, dict[str, Any]] = {}
        self._calls = 0

    def feed(self, event: str, data: str) -> None:
        """One chunk (or an ``error`` object)."""
        chunk = decode_object(data, _LABEL, "a stream chunk")
        self.last_event = "chunk"
        if "error" in chunk:
            error = chunk["error"]
            details = error if isinstance(error, dict) else {"message": error}
            self.emitter.error(str(details.get("status", "error")), str(details.get("message")))
            raise error_from_event(error, context=_LABEL)
        self.emitter.start(response_id=chunk.get("responseId"))
        for key, value in chunk.items():
            if key != "candidates":
                self._top[key] = value
        for candidate in chunk.get("candidates") or ():
            if isinstance(candidate, dict):
                self._candidate(candidate)
        feedback = chunk.get("promptFeedback")
        if isinstance(feedback, dict) and feedback.get("blockReason"):
            self.finished = True  # a blocked prompt gets no candidates at all

    def _candidate(self, raw: dict[str, Any]) -> None:
        index = raw.get("index", 0)
        index = index if isinstance(index, int) else 0
        state = self._candidates.setdefault(index, {"content": {"role": "model", "parts": []}})
        for key, value in raw.items():
            if key == "content" and isinstance(value, dict):
                for part in value.get("parts") or ():
                    if isinstance(part, dict):
                        self._part(state["content"]["parts"], part, index)
                for content_key, content_value in value.items():
                    if content_key != "parts":
                        state["content"][content_key] = content_value
            elif key != "content":
                state[key] = value
        if raw.get("finishReason"):
            self.finished = True

    def _part(self, parts: list[dict[str, Any]], part: dict[str, Any], index: int) -> None:
        if isinstance(part.get("text"), str) and not part.get("thought"):
            self.emitter.text(part["text"], part=index)
        call = part.get("functionCall")
        if isinstance(call, dict):
            self._calls += 1
            call_id = str(call.get("id") or f"call_{self._calls}")
            arguments = call.get("args")
            self.emitter.tool_use(call_id, str(call.get("name", "")))
            if arguments:
                self.emitter.tool_use(
                    call_id, str(call.get("name", "")), orjson.dumps(arguments).decode()
                )
        previous = parts[-1] if parts else None
        if previous is not None and _joinable(previous, part):
            previous["text"] += part["text"]
            if "thoughtSignature" in part:
                previous["thoughtSignature"] = part["thoughtSignature"]
            return
        parts.append(dict(part))

    def payload(self) -> JSON:
        """The ``GenerateContentResponse`` the plain endpoint would have answered."""
        candidates = [self._candidates[index] for index in sorted(self._candidates)]
        body: dict[str, Any] = {}
        if candidates:
            body["candidates"] = candidates
        return {**body, **self._top}


def _joinable(previous: dict[str, Any], part: dict[str, Any]) -> bool:
    """Whether ``part`` continues the text of ``previous``: both plain text parts of the
    same kind, and ``previous`` not yet closed by a signature."""
    return (
        set(previous) <= _TEXT_KEYS
        and set(part) <= _TEXT_KEYS
        and isinstance(previous.get("text"), str)
        and isinstance(part.get("text"), str)
        and bool(previous.get("thought")) == bool(part.get("thought"))
        and "thoughtSignature" not in previous
    )

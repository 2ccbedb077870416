"""``openai-responses``: ``POST {base_url}/responses`` with a Bearer key (``base_url`` ends
with ``/v1``, as for ``openai-chat``).

A stream is typed SSE events (``response.created`` ... ``response.output_item.done`` ...)
ending with ``response.completed`` or ``response.incomplete``, whose ``response`` is the
whole answer: the reader takes it from there (with the items of ``output_item.done`` should
it come without them) and only follows the deltas to pass UMF chunks on.
``response.failed`` and ``error`` are classified by their error code.
"""

from __future__ import annotations

from typing import Any

from providers.clients._errors import error_from_event
from providers.clients._http import HttpClient, StreamReader, StreamState, decode_object
from providers.clients._stream import ChunkEmitter
from providers.umf import JSON

_LABEL = "OpenAI Responses"
_TERMINAL = frozenset({"response.completed", "response.incomplete"})


class OpenAIResponsesClient(HttpClient):
    """A client for the OpenAI Responses API."""

    kind = "openai-responses"
    label = _LABEL
    path = "/responses"  # base_url ends with /v1

    def stream_reader(self, emitter: ChunkEmitter) -> StreamReader:
        """A reader of Responses stream events."""
        return ResponseEventStream(emitter)


class ResponseEventStream(StreamState):
    """Keeps the final ``response`` of a Responses stream; passes deltas on as chunks."""

    def __init__(self, emitter: ChunkEmitter) -> None:
        super().__init__(emitter)
        self._response: dict[str, Any] | None = None
        self._items: dict[int, dict[str, Any]] = {}
        self._calls: dict[str, tuple[str, str]] = {}

    def feed(self, event: str, data: str) -> None:
        """One typed event; unknown types (hosted-tool progress...) are ignored."""
        body = decode_object(data, _LABEL, f"the {event!r} event")
        kind = str(body.get("type", event))
        self.last_event = kind
        if kind == "error":
            self._fail({key: value for key, value in body.items() if key != "type"})
        response = body.get("response")
        if kind == "response.failed":
            error = response.get("error") if isinstance(response, dict) else None
            self._fail(error if error is not None else {"code": "server_error"})
        if kind == "response.created" and isinstance(response, dict):
            self.emitter.start(response_id=response.get("id"))
        elif kind in _TERMINAL and isinstance(response, dict):
            self._response = response
            self.finished = True
        else:
            self._follow(kind, body)

    def _fail(self, error: Any) -> None:
        details = error if isinstance(error, dict) else {"message": error}
        self.emitter.error(str(details.get("code") or "error"), str(details.get("message")))
        raise error_from_event(error, context=_LABEL)

    def _follow(self, kind: str, body: dict[str, Any]) -> None:
        item = body.get("item")
        if kind == "response.output_text.delta":
            self.emitter.text(str(body.get("delta", "")))
        elif kind == "response.output_item.added" and isinstance(item, dict):
            if item.get("type") == "function_call":
                started = (str(item.get("call_id", "")), str(item.get("name", "")))
                self._calls[str(item.get("id"))] = started
                self.emitter.tool_use(*started)
        elif kind == "response.function_call_arguments.delta":
            known = self._calls.get(str(body.get("item_id")))
            if known is not None and body.get("delta"):
                self.emitter.tool_use(*known, str(body["delta"]))
        elif kind == "response.output_item.done" and isinstance(item, dict):
            index = body.get("output_index")
            self._items[index if isinstance(index, int) else len(self._items)] = item

    def payload(self) -> JSON:
        """The ``response`` object the plain endpoint would have answered."""
        response = dict(self._response or {})
        if not response.get("output") and self._items:
            response["output"] = [self._items[index] for index in sorted(self._items)]
        return response

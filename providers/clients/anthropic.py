"""``anthropic``: ``POST {base_url}/v1/messages`` with ``x-api-key`` and
``anthropic-version: 2023-06-01``.

A stream is named SSE events: ``message_start`` (the message, empty content, usage) ->
per block ``content_block_start`` / ``content_block_delta``* / ``content_block_stop`` ->
``message_delta`` (stop reason, cumulative usage) -> ``message_stop``. ``ping`` and event
types we do not know are ignored, as Anthropic asks; an ``error`` event after the 200 is
classified like the status its type stands for (``overloaded_error`` is a 529: transient).
"""

from __future__ import annotations

import copy
from typing import Any

import orjson

from providers.clients._errors import error_from_event, malformed
from providers.clients._http import HttpClient, StreamReader, StreamState, decode_object
from providers.clients._stream import ChunkEmitter
from providers.umf import JSON

API_VERSION = "2023-06-01"
_LABEL = "Anthropic"


class AnthropicClient(HttpClient):
    """A client for the Anthropic Messages API."""

    kind = "anthropic"
    label = _LABEL
    path = "/v1/messages"

    def credential_headers(self) -> dict[str, str]:
        """``x-api-key`` (when there is a key) and the API version."""
        headers = {"anthropic-version": API_VERSION}
        if self.config.api_key:
            headers["x-api-key"] = self.config.api_key
        return headers

    def stream_reader(self, emitter: ChunkEmitter) -> StreamReader:
        """A reader of Messages stream events."""
        return MessageStream(emitter)


class MessageStream(StreamState):
    """Rebuilds the response Message from its stream events."""

    def __init__(self, emitter: ChunkEmitter) -> None:
        super().__init__(emitter)
        self._message: dict[str, Any] | None = None
        self._blocks: dict[int, dict[str, Any]] = {}
        self._partial_json: dict[int, str] = {}

    def feed(self, event: str, data: str) -> None:
        """One named event; its ``data.type`` repeats the name."""
        if event == "ping":
            return
        body = decode_object(data, _LABEL, f"the {event!r} event")
        kind = body.get("type", event)
        self.last_event = str(kind)
        if kind == "error":
            self._error(body.get("error"))
        elif kind == "message_start":
            self._start(body, data)
        elif self._message is None and kind in _NEEDS_MESSAGE:
            raise malformed(_LABEL, f"{kind!r} before message_start", data)
        elif kind == "content_block_start":
            self._block_start(body, data)
        elif kind == "content_block_delta":
            self._block_delta(body, data)
        elif kind == "content_block_stop":
            self._block_stop(body, data)
        elif kind == "message_delta":
            self._message_delta(body)
        elif kind == "message_stop":
            self.finished = True

    def _error(self, error: Any) -> None:
        details = error if isinstance(error, dict) else {"message": error}
        self.emitter.error(str(details.get("type", "error")), str(details.get("message", "")))
        raise error_from_event(error if error is not None else "error", context=_LABEL)

    def _start(self, body: dict[str, Any], data: str) -> None:
        message = body.get("message")
        if not isinstance(message, dict):
            raise malformed(_LABEL, "message_start without a message", data)
        self._message = copy.deepcopy(message)
        self.emitter.start(response_id=message.get("id"))

    def _index(self, body: dict[str, Any], data: str) -> int:
        index = body.get("index")
        if not isinstance(index, int):
            raise malformed(_LABEL, f"{body.get('type')} without an index", data)
        return index

    def _block_start(self, body: dict[str, Any], data: str) -> None:
        index = self._index(body, data)
        block = body.get("content_block")
        if not isinstance(block, dict):
            raise malformed(_LABEL, "content_block_start without a block", data)
        self._blocks[index] = copy.deepcopy(block)
        if block.get("type") in ("tool_use", "server_tool_use"):
            self._partial_json[index] = ""
            self.emitter.tool_use(str(block.get("id", "")), str(block.get("name", "")))

    def _block_delta(self, body: dict[str, Any], data: str) -> None:
        index = self._index(body, data)
        block = self._blocks.get(index)
        delta = body.get("delta")
        if block is None or not isinstance(delta, dict):
            raise malformed(_LABEL, "a delta for a block that did not start", data)
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] = block.get("text", "") + str(delta.get("text", ""))
            self.emitter.text(str(delta.get("text", "")))
        elif kind == "input_json_delta":
            piece = str(delta.get("partial_json", ""))
            self._partial_json[index] = self._partial_json.get(index, "") + piece
            if piece:
                self.emitter.tool_use(str(block.get("id", "")), str(block.get("name", "")), piece)
        elif kind == "thinking_delta":
            block["thinking"] = block.get("thinking", "") + str(delta.get("thinking", ""))
        elif kind == "signature_delta":
            block["signature"] = block.get("signature", "") + str(delta.get("signature", ""))
        elif kind == "citations_delta":
            block.setdefault("citations", []).append(delta.get("citation"))

    def _block_stop(self, body: dict[str, Any], data: str) -> None:
        index = self._index(body, data)
        partial = self._partial_json.pop(index, None)
        if partial is None or index not in self._blocks:
            return
        if partial.strip():
            try:
                self._blocks[index]["input"] = orjson.loads(partial)
            except orjson.JSONDecodeError:
                raise malformed(_LABEL, "tool input is not JSON", partial) from None

    def _message_delta(self, body: dict[str, Any]) -> None:
        assert self._message is not None  # checked by feed
        delta = body.get("delta")
        if isinstance(delta, dict):
            self._message.update(delta)
        usage = body.get("usage")
        if isinstance(usage, dict):
            # message_delta's usage is cumulative: its counts replace message_start's.
            merged = self._message.get("usage")
            self._message["usage"] = {**(merged if isinstance(merged, dict) else {}), **usage}

    def payload(self) -> JSON:
        """The Message the plain endpoint would have answered."""
        message = dict(self._message or {})
        message["content"] = [self._blocks[index] for index in sorted(self._blocks)]
        return message


_NEEDS_MESSAGE = frozenset(
    {"content_block_start", "content_block_delta", "content_block_stop", "message_delta"}
)

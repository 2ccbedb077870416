"""A fake LLM provider: a real HTTP server on 127.0.0.1 that speaks each provider's wire
protocol, answers from a script, injects faults, and records every request.

Usable from pytest, benchmarks and scripts alike (no fixtures needed)::

    with FakeProviderServer(api_key="sk-test") as server:
        server.script(Fault.rate_limited(retry_after="2"), Answer(text="Hi"))
        config = ProviderConfig(allow_private_network=True, name="fake", kind="openai-chat",
                                base_url=server.base_url("openai-chat"), api_key="sk-test")
        ...                        # first call: 429, second: "Hi"
        server.requests            # what came in: path, headers, JSON body, outcome, fault
        server.calls()             # the same, per call (a first try and its retries)

Routes: ``/v1/chat/completions`` (and ``/chat/completions``), ``/v1/responses``,
``/v1/messages``, ``/v1beta/models/{model}:generateContent`` and
``:streamGenerateContent?alt=sse``, ``/api/chat``. Whether to stream is read from the request
as the provider would (``"stream": true``; Ollama streams unless ``"stream": false``).

Each request takes the next scripted step (an :class:`Answer` or a :class:`Fault`); with the
script empty, ``responder`` (if set) decides, then ``fault_plan`` (a seeded
:class:`RandomFaults` for soak tests), then ``default_answer``. With ``api_key`` set, a
request without that key in its provider's header gets the provider's 401.
"""

from __future__ import annotations

import contextlib
import hashlib
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

import orjson

from fakes.provider_faults import STREAM_ERROR_TYPES, Fault, RandomFaults, error_type_for
from fakes.wire import WIRES, Answer, Call, Frame, ToolCall

__all__ = [
    "Answer",
    "FakeProviderServer",
    "Fault",
    "RandomFaults",
    "RecordedRequest",
    "ToolCall",
]

Step = Answer | Fault
Responder = Callable[["RecordedRequest"], Step | None]


@dataclass
class RecordedRequest:
    """One request the server received, and what it did with it."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes
    json: Any
    provider: str | None
    stream: bool
    model: str
    outcome: str = "answer"
    received_at: float = field(default_factory=time.monotonic)
    # The fault injected into this request (None: answered), and a digest of its model and
    # body (stream flags left out): a retry of the same call has the same key.
    fault: Fault | None = None
    key: str = ""


class FakeProviderServer:
    """See the module docstring."""

    def __init__(
        self,
        *,
        latency: float = 0.0,
        chunk_delay: float = 0.0,
        api_key: str | None = None,
        default_answer: Answer | None = None,
        fault_plan: RandomFaults | None = None,
        responder: Responder | None = None,
    ) -> None:
        self.latency = latency
        self.chunk_delay = chunk_delay
        self.api_key = api_key
        self.default_answer = default_answer or Answer()
        self.fault_plan = fault_plan
        self.responder = responder
        self._steps: deque[Step] = deque()
        self._log: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ----------------------------------------------------------------- lifetime

    def start(self) -> FakeProviderServer:
        """Listen on a free port of 127.0.0.1 and serve from a daemon thread."""
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._stopping.clear()
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; hanging answers are cut short."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeProviderServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        if self._server is None:
            raise RuntimeError("the fake provider server is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def base_url(self, kind: str) -> str:
        """The ``base_url`` a client of ``kind`` is configured with (OpenAI's include ``/v1``)."""
        return f"{self.url}/v1" if kind in ("openai-chat", "openai-responses") else self.url

    def provider_settings(self, kind: str, model: str, **more: Any) -> dict[str, Any]:
        """An entry of ``UMF_PROVIDERS`` named ``fake`` that calls this server as a ``kind``
        provider with one ``model`` (``more``: other keys, such as ``timeout``), with this
        server's key when it asks for one."""
        key = {"api_key": self.api_key} if self.api_key is not None else {}
        return {
            "name": "fake",
            "kind": kind,
            "base_url": self.base_url(kind),
            **key,
            "allow_private_network": True,
            "models": [model],
            **more,
        }

    # ----------------------------------------------------------------- script and log

    def script(self, *steps: Step) -> None:
        """Queue answers and faults; each request takes the next one."""
        with self._lock:
            self._steps.extend(steps)

    def reset(self) -> None:
        """Forget the script, the log, the plan and every setting (between tests)."""
        with self._lock:
            self._steps.clear()
            self._log.clear()
        self.fault_plan = None
        self.responder = None
        self.latency = 0.0
        self.chunk_delay = 0.0
        self.api_key = None
        self.default_answer = Answer()

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, in arrival order."""
        with self._lock:
            return list(self._log)

    def calls(self) -> dict[str, list[RecordedRequest]]:
        """The request log per call: the requests that carried the same model and body
        (the first try and every retry of one turn), each list in arrival order."""
        grouped: dict[str, list[RecordedRequest]] = {}
        for request in self.requests:
            grouped.setdefault(request.key, []).append(request)
        return grouped

    def _record(self, request: RecordedRequest) -> Step:
        with self._lock:
            self._log.append(request)
            step: Step | None = self._steps.popleft() if self._steps else None
        if step is None and self.responder is not None:
            step = self.responder(request)
        if step is None and self.fault_plan is not None:
            step = self.fault_plan.draw()
        step = step if step is not None else self.default_answer
        request.fault = step if isinstance(step, Fault) else None
        return step


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    request_queue_size = 256
    fake: FakeProviderServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hangs up (after a timeout, a cut stream) is normal here."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: tests and benchmarks read the request log instead."""

    def do_GET(self) -> None:
        self._reply_json(404, {"error": {"message": "not found"}})

    def do_POST(self) -> None:
        fake = self.server.fake
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        request = self._read(body)
        step = fake._record(request)
        if fake.latency:
            time.sleep(fake.latency)
        wire = WIRES.get(request.provider or "")
        if wire is None:
            request.outcome = "not found"
            self._reply_json(404, {"error": {"message": f"no route for {request.path}"}})
            return
        if request.json is None and body:
            request.outcome = "bad json"
            self._reply_json(400, wire.error_body(400, "invalid_request_error", "invalid JSON"))
            return
        if not self._authorized(request):
            request.outcome = "unauthorized"
            request.fault = Fault.unauthorized()
            self._fail(wire, request, Fault.unauthorized())
            return
        if isinstance(step, Fault):
            request.outcome = step.kind if step.kind != "status" else str(step.status)
            self._fail(wire, request, step)
            return
        self._answer(wire, request, step)

    # ----------------------------------------------------------------- reading

    def _read(self, body: bytes) -> RecordedRequest:
        split = urlsplit(self.path)
        query = parse_qs(split.query)
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            decoded = orjson.loads(body) if body else None
        except orjson.JSONDecodeError:
            decoded = None
        data = decoded if isinstance(decoded, dict) else {}
        provider, model = _route(split.path)
        model = model or str(data.get("model") or "")
        if provider == "gemini":
            stream = split.path.endswith(":streamGenerateContent")
        elif provider == "ollama":
            stream = data.get("stream", True) is not False
        else:
            stream = data.get("stream") is True
        stable = {k: v for k, v in data.items() if k not in ("stream", "stream_options")}
        digest = hashlib.sha256(orjson.dumps([model, stable], option=orjson.OPT_SORT_KEYS))
        return RecordedRequest(
            key=digest.hexdigest()[:24],
            method=self.command,
            path=split.path,
            query=query,
            headers=headers,
            body=body,
            json=decoded,
            provider=provider,
            stream=stream,
            model=model,
        )

    def _authorized(self, request: RecordedRequest) -> bool:
        key = self.server.fake.api_key
        if key is None:
            return True
        headers = request.headers
        if request.provider == "anthropic":
            return headers.get("x-api-key") == key and "anthropic-version" in headers
        if request.provider == "gemini":
            return headers.get("x-goog-api-key") == key
        return headers.get("authorization") == f"Bearer {key}"

    # ----------------------------------------------------------------- answering

    def _call(self, request: RecordedRequest) -> Call:
        data = request.json if isinstance(request.json, dict) else {}
        options = data.get("stream_options")
        include_usage = isinstance(options, dict) and options.get("include_usage") is True
        return Call(
            provider=request.provider or "",
            model=request.model,
            stream=request.stream,
            include_usage=include_usage or request.provider != "openai-chat",
            key=request.key,
        )

    def _answer(self, wire: Any, request: RecordedRequest, answer: Answer) -> None:
        call = self._call(request)
        if request.stream:
            self._stream(wire, list(wire.frames(answer, call)))
        else:
            self._reply_json(200, wire.plain(answer, call))

    def _fail(self, wire: Any, request: RecordedRequest, fault: Fault) -> None:
        call = self._call(request)
        if fault.kind == "hang":
            self.server.fake._stopping.wait(fault.seconds)
            self.close_connection = True
        elif fault.kind == "status" or (fault.kind == "error_event" and not request.stream):
            error_type = fault.error_type or error_type_for(request.provider, fault.status)
            body = fault.body or wire.error_body(fault.status, error_type, f"fake {error_type}")
            self._reply_json(fault.status, body, dict(fault.headers))
        elif fault.kind == "malformed_json":
            if request.stream:
                frames = list(wire.frames(self.server.fake.default_answer, call))
                self._stream(wire, [frames[0], Frame(b"data: {not json\n\n")])
            else:
                self._reply_bytes(200, b'{"id": "broken", "choices": [', "application/json")
        elif fault.kind == "error_event":
            frames = list(wire.frames(self.server.fake.default_answer, call))
            error_type = fault.error_type or STREAM_ERROR_TYPES.get(
                request.provider or "", "server_error"
            )
            self._stream(wire, [*frames[:2], wire.error_frame(error_type, f"fake {error_type}")])
        elif fault.kind == "incomplete" and request.stream:
            frames = list(wire.frames(self.server.fake.default_answer, call))
            self._stream(wire, [frame for frame in frames if not frame.terminal])
        else:  # truncate (and a plain request's "incomplete"): cut the connection mid-answer
            self._truncate(wire, request, call)

    def _truncate(self, wire: Any, request: RecordedRequest, call: Call) -> None:
        answer = self.server.fake.default_answer
        if request.stream:
            frames = list(wire.frames(answer, call))
            self._stream(wire, frames[: max(len(frames) // 2, 1)], finish=False)
        else:
            body = orjson.dumps(wire.plain(answer, call))
            self._send_head(200, "application/json", {"content-length": str(len(body))})
            self._write(body[: len(body) // 2])
        self.close_connection = True

    # ----------------------------------------------------------------- writing

    def _send_head(self, status: int, content_type: str, headers: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("content-type", content_type)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()

    def _reply_json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self._reply_bytes(status, orjson.dumps(body), "application/json", headers)

    def _reply_bytes(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self._send_head(status, content_type, {**(headers or {}), "content-length": str(len(body))})
        self._write(body)

    def _stream(self, wire: Any, frames: list[Frame], *, finish: bool = True) -> None:
        self._send_head(200, wire.content_type, {"transfer-encoding": "chunked"})
        delay = self.server.fake.chunk_delay
        for frame in frames:
            if delay:
                time.sleep(delay)
            if not self._write(b"%x\r\n%s\r\n" % (len(frame.data), frame.data)):
                return
        if finish:
            self._write(b"0\r\n\r\n")
        else:
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)

    def _write(self, data: bytes) -> bool:
        try:
            self.wfile.write(data)
        except OSError:  # the client gave up (timeout): nothing more to say
            self.close_connection = True
            return False
        return True


def _route(path: str) -> tuple[str | None, str]:
    """Which provider a path belongs to (and the model, when the path names it)."""
    if path in ("/v1/chat/completions", "/chat/completions"):
        return "openai-chat", ""
    if path in ("/v1/responses", "/responses"):
        return "openai-responses", ""
    if path == "/v1/messages":
        return "anthropic", ""
    if path == "/api/chat":
        return "ollama", ""
    prefix = "/v1beta/models/"
    if path.startswith(prefix) and path.endswith((":generateContent", ":streamGenerateContent")):
        return "gemini", path[len(prefix) :].rsplit(":", 1)[0]
    return None, ""

"""What one ordinary account can make the server spend (issue 21), case by case.

Starts the server (``manage.py runserver``, one process, on a database of its own: a fresh
SQLite file unless DATABASE_URL is given), signs up a user, then sends each case of the
issue and prints, per case, the peak RSS of the server process while it ran (sampled every
10 ms), the wall time, the answer, and whether it held: refused with a clear 4xx, or served
within the bounds. Goals: no case above 1 GB of RSS or 5 s.

    .venv/bin/python bench/abuse.py [--only NAME] [--port 8765]

Cases that the server should refuse are expected to answer 4xx; the others (the largest
allowed conversation, a clamped replay) to be served. The run exits 1 when a case misses.

The last cases measure a conversation of 100,000 messages (its server takes up to that
many, past the default cap of 20,000): its import, its page (a window of 200 messages; the
pages bench's goal is 300 ms), the API's detail and a page of its messages, its export to
umf (streamed) and to anthropic (rendered whole). The default cap is raised to 100,000
only once they hold.

The import, convert and export of realistic conversations of 1, 8 and 32 MB
(``_abuse_sizes.py``) each run on a fresh server process and print the ratio of the peak
RSS growth to the body size (the goal: about 10x).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import os
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _abuse_sizes
from _abuse_server import Server, measured

RSS_GOAL = 1024**3
SCRIPT = b"alert(document.cookie)"
USERNAME, PASSWORD = "abuser", "abuser-password"
SECONDS_GOAL = 5.0
PAGE_GOAL = 0.3  # bench/pages.py: a conversation's page in under 300 ms


@dataclass
class Case:
    name: str
    expect: str  # "refused" (a 4xx), "served" (2xx) or "job fails" (202, then a failed job)
    send: Callable[[httpx.Client, dict[str, Any]], httpx.Response]
    what: str
    # What later cases need from the answer (an id, a link), kept in the state.
    keep: Callable[[httpx.Response, dict[str, Any]], None] | None = None
    seconds_goal: float = SECONDS_GOAL
    # Measured on a fresh server process, against this body size (the RSS ratio), and
    # held to ratio_goal when there is one (see _abuse_sizes).
    body_bytes: int = 0
    ratio_goal: float | None = None


@dataclass
class Outcome:
    case: Case
    status: int
    seconds: float
    peak_rss: int
    detail: str

    job_failed: bool = False
    rss_growth: int = 0

    @property
    def ratio(self) -> float | None:
        """Peak RSS growth over the body size, for the cases measured against one."""
        return self.rss_growth / self.case.body_bytes if self.case.body_bytes else None

    @property
    def held(self) -> bool:
        if self.status == 0:  # not sent
            return False
        if self.case.expect == "refused":
            answered = 400 <= self.status < 500
        elif self.case.expect == "job fails":
            answered = self.status == 202 and self.job_failed
        else:
            answered = self.status < 300
        if self.ratio is not None:
            # The sized cases are for memory; the time of a 32 MB import is the ingest
            # bench's (bench/ingest.py), not an attack's.
            goal = self.case.ratio_goal
            return answered and self.peak_rss <= RSS_GOAL and (goal is None or self.ratio <= goal)
        return answered and self.peak_rss <= RSS_GOAL and self.seconds <= self.case.seconds_goal


# --- the payloads --------------------------------------------------------------------


def tiny_messages(count: int) -> list[dict[str, str]]:
    return [{"role": ("user", "assistant")[i % 2], "content": "hi"} for i in range(count)]


def turns(count: int) -> list[dict[str, str]]:
    return [
        {"role": ("user", "assistant")[i % 2], "content": f"turn {i // 2}"}
        for i in range(2 * count)
    ]


def split_zip_bomb(members: int, member_bytes: int) -> bytes:
    """Members each under the per-member ratio's radar, together gigabytes."""
    buffer = io.BytesIO()
    zero = b"\0" * member_bytes
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for index in range(members):
            archive.writestr(f"conversations-{index:05d}.json", zero)
    return buffer.getvalue()


def long_numbers_jsonl(megabytes: int) -> bytes:
    """One JSONL entry that is a bare number of ``megabytes`` digits (ijson's Decimal
    path, quadratic before issue 21)."""
    return b"1" * (megabytes * 1024 * 1024) + b"\n"


# --- the cases -------------------------------------------------------------------------


def get(path: str) -> Callable[[httpx.Client, dict[str, Any]], httpx.Response]:
    return lambda client, state: client.get(path.format(**state))


def keep_id(key: str) -> Callable[[httpx.Response, dict[str, Any]], None]:
    def keep(response: httpx.Response, state: dict[str, Any]) -> None:
        state[key] = response.json()["conversations"][0]["id"]

    return keep


def keep_last_window(response: httpx.Response, state: dict[str, Any]) -> None:
    """The page's link to its last window (``?at=<message id>``)."""
    state["hundred_last"] = response.text.split('" rel="last"')[0].rsplit('href="', 1)[1]


def hundred_thousand() -> list[Case]:
    """A conversation of 100,000 messages: imported, read in pages, paged through the API,
    exported as a stream (umf) and whole (anthropic, which must assemble its payload)."""
    body = {"format": "umf", "payload": turns(50_000), "title": "100,000 messages"}
    return [
        Case(
            "import-100k-messages",
            "served",
            api_json("/api/v1/conversations/import", body),
            "POST conversations/import of 100,000 messages (4 MB)",
            keep_id("hundred"),
        ),
        Case(
            "page-100k",
            "served",
            get("/conversations/{hundred}/"),
            "its page: the first window of 200 messages (its first view reads the path)",
            keep_last_window,
            PAGE_GOAL,
        ),
        Case(
            "page-100k-end",
            "served",
            get("/conversations/{hundred}/{hundred_last}"),
            "its last window (the path from the cache)",
            seconds_goal=PAGE_GOAL,
        ),
        Case(
            "detail-100k",
            "served",
            get("/api/v1/conversations/{hundred}"),
            "GET conversations/{id}: its first 1,000 messages inline, truncated",
        ),
        Case(
            "messages-100k",
            "served",
            get("/api/v1/conversations/{hundred}/messages?limit=200"),
            "GET conversations/{id}/messages: a page of 200",
        ),
        Case(
            "export-100k-umf",
            "served",
            get("/api/v1/conversations/{hundred}/export?format=umf"),
            "its export to umf (streamed)",
        ),
        Case(
            "download-100k-umf",
            "served",
            get("/conversations/{hundred}/export/?format=umf"),
            "the page's download of it (streamed)",
        ),
        Case(
            "export-100k-anthropic",
            "served",
            get("/api/v1/conversations/{hundred}/export?format=anthropic"),
            "its export to anthropic (rendered whole)",
        ),
    ]


def api_json(path: str, body: Any) -> Callable[[httpx.Client, dict[str, Any]], httpx.Response]:
    encoded = orjson.dumps(body)
    return lambda client, state: client.post(
        path.format(**state), content=encoded, headers={"content-type": "application/json"}
    )


def upload(name: str, data: bytes) -> Callable[[httpx.Client, dict[str, Any]], httpx.Response]:
    return lambda client, state: client.post(
        "/api/v1/imports", files={"file": (name, data)}, data={"format": "auto"}
    )


def cases() -> list[Case]:
    million = {"format": "umf", "payload": tiny_messages(1_000_000)}
    convert = {"from": "umf", "to": "anthropic", "payload": tiny_messages(1_000_000)}
    document = {
        "type": "document",
        "source": {
            "type": "base64",
            "media_type": "application/javascript",
            "data": base64.b64encode(SCRIPT).decode(),
        },
    }
    return [
        Case(
            "import-1M-messages",
            "refused",
            api_json("/api/v1/conversations/import", million),
            "POST conversations/import of 1,000,000 tiny messages (28 MB)",
        ),
        Case(
            "convert-1M-messages",
            "refused",
            api_json("/api/v1/convert", convert),
            "POST convert of the same",
        ),
        Case(
            "import-largest-allowed",
            "served",
            api_json("/api/v1/conversations/import", {"format": "umf", "payload": turns(10_000)}),
            "a conversation of 20,000 messages (the default cap)",
            keep_id("largest"),
        ),
        Case(
            "page-largest",
            "served",
            lambda client, state: client.get(f"/conversations/{state['largest']}/"),
            "its page",
            seconds_goal=PAGE_GOAL,
        ),
        Case(
            "export-largest",
            "served",
            lambda client, state: client.get(
                f"/api/v1/conversations/{state['largest']}/export?format=anthropic"
            ),
            "its export to anthropic",
        ),
        Case(
            "replay-each-1000-turns",
            "refused",
            api_json(
                "/api/v1/conversations/{replayable}/replays",
                {"provider": "echo", "model": "echo-1", "mode": "each"},
            ),
            "replay in mode each of 1,000 turns",
        ),
        Case(
            "replay-unlisted-model",
            "refused",
            api_json(
                "/api/v1/conversations/{small}/replays", {"provider": "echo", "model": "o1-pro"}
            ),
            "replay asking for a model the provider does not list",
        ),
        Case(
            "replay-n-128",
            "refused",
            api_json(
                "/api/v1/conversations/{small}/replays",
                {"provider": "echo", "model": "echo-1", "parameters": {"n": 128}},
            ),
            "replay with n: 128",
        ),
        Case(
            "replay-max-tokens-1e9",
            "served",
            api_json(
                "/api/v1/conversations/{small}/replays",
                {"provider": "echo", "model": "echo-1", "parameters": {"max_tokens": 10**9}},
            ),
            "replay with max_tokens 1e9 (clamped, with a warning)",
        ),
        Case(
            "import-script-attachment",
            "served",
            api_json(
                "/api/v1/conversations/import",
                {"format": "umf", "payload": [{"role": "user", "content": [document]}]},
            ),
            "a document typed application/javascript (then fetched: must not be a script)",
        ),
        Case(
            "zip-split-bomb",
            "job fails",
            upload("bomb.zip", split_zip_bomb(3_000, 1024 * 1024 - 1)),
            "3,000 members under 1 MiB each, 3 GB expanded",
        ),
        Case(
            "long-number-8MB",
            "job fails",
            upload("numbers.jsonl", long_numbers_jsonl(8)),
            "a JSONL entry of one 8 MB number",
        ),
        *_abuse_sizes.sized_cases(Case, api_json, keep_id),
        *hundred_thousand(),
    ]


# --- the measure -----------------------------------------------------------------------


def prepare(server: Server, client: httpx.Client) -> dict[str, Any]:
    """The conversations the cases refer to."""
    state: dict[str, Any] = {}
    for key, payload in (("small", turns(2)), ("replayable", turns(1_000))):
        answer = client.post(
            "/api/v1/conversations/import", json={"format": "umf", "payload": payload}
        )
        answer.raise_for_status()
        state[key] = answer.json()["conversations"][0]["id"]
    return state


def detail(case: Case, response: httpx.Response, client: httpx.Client) -> str:
    try:
        body = response.json()
    except ValueError:
        return f"{len(response.content):,} bytes"
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return str(body["error"].get("message", ""))[:90]
    if case.expect == "job fails":
        # Without a broker the job runs before the answer: it has ended by now.
        job = client.get(f"/api/v1/imports/{body['id']}").json()
        return f"job {job['status']}: {job['error'][:70]}"
    if case.name == "import-script-attachment":
        # Attachments are stored by the SHA-256 of their bytes, and served to the owner's
        # session: what type does the browser get?
        served = client.get(f"/attachments/{hashlib.sha256(SCRIPT).hexdigest()}/")
        return f"stored; /attachments/ serves it as {served.headers.get('content-type')}"
    return f"{len(response.content):,} bytes"


def log_in(client: httpx.Client) -> None:
    """A browser session beside the token (pages and attachments are for sessions)."""
    client.get("/accounts/login/")
    answer = client.post(
        "/accounts/login/",
        data={
            "username": USERNAME,
            "password": PASSWORD,
            "csrfmiddlewaretoken": client.cookies["csrftoken"],
        },
        headers={"referer": str(client.base_url) + "/accounts/login/"},
    )
    if "sessionid" not in client.cookies:
        raise SystemExit(f"could not log in: {answer.status_code}")


def run_case(server: Server, client: httpx.Client, case: Case, state: dict[str, Any]) -> Outcome:
    """Send one case, measured; a case that needs what an earlier one failed to give (an
    id, a link) is not sent, and misses."""
    if case.body_bytes:  # measured against its body: on a process of its own
        server.stop()
        server.start()
    try:
        response, seconds, peak, start = measured(server, partial(case.send, client, state))
    except KeyError as missing:
        return Outcome(
            case, 0, 0.0, 0, f"not sent: needs {missing}, which an earlier case did not give"
        )
    if case.keep is not None and response.status_code < 300:
        case.keep(response, state)
    said = detail(case, response, client)
    failed = said.startswith("job failed")
    return Outcome(case, response.status_code, seconds, peak, said, failed, peak - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run only the cases whose name holds this")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/abuse.sqlite3"
        server = Server(args.port, database)
        server.start()
        try:
            server.manage("shell", "-c", _CREATE_USER)
            token = server.manage("drf_create_token", USERNAME).split()[2]
            headers = {"authorization": f"Token {token}"}
            with httpx.Client(
                base_url=f"http://127.0.0.1:{args.port}", headers=headers, timeout=600
            ) as client:
                log_in(client)
                state = prepare(server, client)
                outcomes = []
                for case in cases():
                    if args.only and args.only not in case.name:
                        continue
                    outcome = run_case(server, client, case, state)
                    outcomes.append(outcome)
                    ratio = "" if outcome.ratio is None else f"{outcome.ratio:5.1f}x body  "
                    if outcome.ratio is not None and case.ratio_goal is None:
                        ratio += "(not held to 10x) "
                    print(
                        f"{case.name:26} {outcome.status:4} {outcome.seconds:7.2f} s "
                        f"{outcome.peak_rss / 1024**2:7.0f} MB  "
                        f"{'held' if outcome.held else 'MISSED':6}  "
                        f"{ratio}{outcome.detail}",
                        flush=True,
                    )
        finally:
            server.stop()
    missed = [outcome.case.name for outcome in outcomes if not outcome.held]
    print(
        f"\n{len(outcomes) - len(missed)} of {len(outcomes)} held"
        + (f"; missed: {', '.join(missed)}" if missed else "")
    )
    return 1 if missed else 0


_CREATE_USER = (
    "from django.contrib.auth.models import User; "
    f"User.objects.filter(username={USERNAME!r}).exists() or "
    f"User.objects.create_user({USERNAME!r}, password={PASSWORD!r})"
)


if __name__ == "__main__":
    sys.exit(main())

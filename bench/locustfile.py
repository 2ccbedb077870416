"""The load of issue 7, item 10, for locust (driven by ``bench/load.py``): people browsing
the conversation list, opening conversations, searching and exporting, while others
import (one conversation at a time through the API, and files through background jobs).

Requests are named by page type (``list``, ``conversation``, ``search``, ``export``,
``import``, ``import file``) so the report gives a p95 for each. Any answer other than the
expected status is a failure whose message starts with ``HTTP <status>``, so server errors
can be told from the rest. Reads LOAD_USERNAME, LOAD_PASSWORD, LOAD_TOKEN, LOAD_SESSIONS,
LOAD_IMPORTERS and LOAD_SEARCH_WEIGHT.
"""

from __future__ import annotations

import os
import random
import re
import uuid
from typing import Any
from urllib.parse import urlsplit

import orjson
from locust import HttpUser, between, task

USERNAME = os.environ.get("LOAD_USERNAME", "load")
PASSWORD = os.environ.get("LOAD_PASSWORD", "load-password")
TOKEN = os.environ.get("LOAD_TOKEN", "")
# Session keys of people already logged in, one per browser; without them, each logs in.
SESSIONS = [key for key in os.environ.get("LOAD_SESSIONS", "").split(",") if key]
LINK = re.compile(r'href="/conversations/([0-9a-f-]{36})/"')
# Words of the filled archive (bench/pages.py's vocabulary): searches find something.
SEARCHES = ["umbrella", "invoice carrier", "postgres index", "weather paris", "retry timeout"]
# How often a browser searches, against 3 list pages, 4 conversations and 1 export.
SEARCH_WEIGHT = int(os.environ.get("LOAD_SEARCH_WEIGHT", "2"))
EXPORT_FORMATS = ["openai-chat", "anthropic", "gemini", "umf", "sharegpt"]


def check(response: Any, expected: int = 200) -> None:
    """Mark the request failed, naming the status, unless it is ``expected`` (and not the
    login page that a lost session ends on)."""
    if response.status_code == 0:  # no answer at all: say why
        response.failure(f"no answer: {response.error!r}")
    elif response.status_code != expected:
        response.failure(f"HTTP {response.status_code}")
    elif "/accounts/login/" in response.url:
        response.failure("sent to the login page")
    else:
        response.success()


class Browser(HttpUser):
    """Someone reading the archive in a browser (session login)."""

    wait_time = between(1, 3)

    def on_start(self) -> None:
        self.seen: list[str] = []
        if SESSIONS:
            # Already logged in (bench/load.py): the session cookie is all a browser sends.
            self.client.cookies.set(
                "sessionid", SESSIONS.pop(), domain=urlsplit(self.host).hostname
            )
            return
        self.client.get("/accounts/login/", name="login")
        csrf = self.client.cookies.get("csrftoken", "")
        with self.client.post(
            "/accounts/login/",
            {"username": USERNAME, "password": PASSWORD, "csrfmiddlewaretoken": csrf},
            headers={"referer": f"{self.host}/accounts/login/"},
            name="login",
            catch_response=True,
        ) as response:
            check(response)  # a refused login stays on the login page

    def _list(self, path: str, name: str) -> None:
        with self.client.get(path, name=name, catch_response=True) as response:
            check(response)
            self.seen = LINK.findall(response.text) or self.seen

    @task(3)
    def browse_list(self) -> None:
        self._list(f"/?page={random.randint(1, 20)}", "list")

    @task(4)
    def open_conversation(self) -> None:
        if not self.seen:
            self._list("/", "list")
        with self.client.get(
            f"/conversations/{random.choice(self.seen)}/", name="conversation", catch_response=True
        ) as response:
            check(response)

    @task(SEARCH_WEIGHT)
    def search(self) -> None:
        self._list(f"/?q={random.choice(SEARCHES).replace(' ', '+')}", "search")

    @task(1)
    def export(self) -> None:
        if not self.seen:
            self._list("/", "list")
        path = f"/api/v1/conversations/{random.choice(self.seen)}/export"
        with self.client.get(
            path, params={"format": random.choice(EXPORT_FORMATS)}, name="export",
            catch_response=True,
        ) as response:  # fmt: skip
            check(response)


class Importer(HttpUser):
    """A script importing logged conversations through the API (token auth). There are
    LOAD_IMPORTERS of them (5 by default); every other user is a :class:`Browser`."""

    fixed_count = int(os.environ.get("LOAD_IMPORTERS", "5"))
    wait_time = between(1, 3)

    def on_start(self) -> None:
        self.client.headers["authorization"] = f"Token {TOKEN}"

    @task(4)
    def import_one(self) -> None:
        body = {"format": "openai-chat", "payload": {"messages": _messages(6)}}
        with self.client.post(
            "/api/v1/conversations/import", json=body, name="import", catch_response=True
        ) as response:
            check(response, 201)

    @task(1)
    def import_file(self) -> None:
        lines = [orjson.dumps({"messages": _messages(4)}) for _ in range(20)]
        upload = {"file": (f"{uuid.uuid4().hex}.jsonl", b"\n".join(lines), "application/x-ndjson")}
        with self.client.post(
            "/api/v1/imports", files=upload, data={"format": "openai-finetune"},
            name="import file", catch_response=True,
        ) as response:  # fmt: skip
            check(response, 202)


def _messages(count: int) -> list[dict[str, str]]:
    tag = uuid.uuid4().hex  # new content each time: stored, not found as a duplicate
    roles = ["user", "assistant"]
    return [
        {"role": roles[index % 2], "content": f"Load test message {index} about invoices {tag}."}
        for index in range(count)
    ]

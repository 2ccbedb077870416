"""The replay soak, shared by ``bench/soak.py`` (1,000 runs) and its fast version in the
test suite (``tests/conversations/services/test_replay_soak.py``): conversations each marked with a
run tag, a fake provider that fails about a quarter of its calls in every way the issue
lists, real Celery workers, and the checks that every run ended, with its reason, with no
turn lost or stored twice, and that the server saw no forbidden retry.

Django is imported inside the functions that need it: the bench sets its database up first.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson

from fakes.provider_faults import Fault, RandomFaults
from fakes.provider_server import FakeProviderServer, RecordedRequest
from fakes.request_audit import Audit, audit_requests

ROOT = Path(__file__).resolve().parents[1]
KEY = "sk-soak-provider-key-0123456789"
# Short enough that the soak is quick; a hang outlasts the client's timeout.
CLIENT_TIMEOUT = 1.0
MAX_COUNTDOWN = 2
_TAG = re.compile(rb"soak-[0-9a-f]{12}")


def soak_faults() -> list[Fault]:
    """Every fault of issue 7, item 9. One retry-after (3 s) is longer than the workers'
    longest countdown (2 s), so the run must wait through more than one countdown."""
    return [
        Fault.rate_limited(retry_after="1"),
        Fault.rate_limited(retry_after="3"),
        Fault.rate_limited(retry_after=None, retry_after_ms="1500"),
        Fault.http(503, retry_after="1"),
        Fault.server_error(),
        Fault.overloaded(),
        Fault.hang(CLIENT_TIMEOUT + 2),
        Fault.truncated(),
        Fault.error_event(),
        Fault.malformed_json(),
        Fault.bad_request(),
        Fault.unauthorized(),
    ]


def soak_plan(*, seed: int, rate: float) -> RandomFaults:
    """The seeded plan: each call fails with probability ``rate``, in one of the ways above."""
    return RandomFaults(seed=seed, rate=rate, faults=soak_faults())


def soak_providers(server: FakeProviderServer) -> list[dict[str, Any]]:
    """Provider configs for the workers: OpenAI chat answering plain JSON, Anthropic
    streaming (so faults cut streams too)."""
    common = {"api_key": KEY, "timeout": CLIENT_TIMEOUT, "allow_private_network": True}
    return [
        {"name": "soak-openai", "kind": "openai-chat", "models": ["fake-1"]}
        | {"base_url": server.base_url("openai-chat"), "stream": False}
        | common,
        {"name": "soak-anthropic", "kind": "anthropic", "models": ["fake-1"]}
        | {"base_url": server.base_url("anthropic"), "stream": True}
        | common,
    ]


def soak_conversation(tag: str) -> list[dict[str, str]]:
    """A small conversation with two assistant turns, carrying ``tag`` in every request."""
    return [
        {"role": "system", "content": f"You are terse. ({tag})"},
        {"role": "user", "content": "What is the capital of France?"},
        {"role": "assistant", "content": "Paris."},
        {"role": "user", "content": "And of Italy?"},
        {"role": "assistant", "content": "Rome."},
    ]


def run_tag(request: RecordedRequest) -> str:
    """The tag of the conversation a request replays (every soak conversation has one)."""
    found = _TAG.search(request.body)
    return found.group().decode() if found else "untagged"


def start_worker(
    *,
    database_url: str,
    broker_url: str,
    queue: str,
    providers: list[dict[str, Any]],
    concurrency: int,
    name: str,
    log: IO[bytes] | None = None,
    loglevel: str = "warning",
) -> subprocess.Popen[bytes]:
    """A Celery worker process (threads pool) serving ``queue`` for the soak, logging at
    ``loglevel`` to ``log``. Keys reach it as settings read them: from an environment
    variable the config names."""
    keyed = [
        {k: v for k, v in provider.items() if k != "api_key"} | {"api_key_env": "UMF_SOAK_KEY"}
        for provider in providers
    ]
    env = {
        **os.environ,
        "UMF_SOAK_KEY": KEY,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_QUEUE": queue,
        "UMF_EXTRA_PROVIDERS": orjson.dumps(keyed).decode(),
        "UMF_REPLAY_MAX_COUNTDOWN": str(MAX_COUNTDOWN),
        "DATABASE_POOL_MAX_SIZE": str(concurrency + 2),
        "LOG_LEVEL": "WARNING",
        # A crash (a signal) prints every thread's Python stack into the log.
        "PYTHONFAULTHANDLER": "1",
    }
    command = [sys.executable, "-m", "celery", "-A", "umfsite", "worker", "--pool=threads"]
    command += [f"--concurrency={concurrency}", "-Q", queue, f"--loglevel={loglevel}"]
    command += ["--without-heartbeat", "--without-gossip", "--without-mingle"]
    command += [f"--hostname={name}@%h"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)


def import_conversations(*, owner: Any, count: int) -> dict[str, Any]:
    """Import ``count`` small conversations, each with a tag of its own; tag -> conversation."""
    import uuid

    from conversations import services

    imported: dict[str, Any] = {}
    for _ in range(count):
        tag = f"soak-{uuid.uuid4().hex[:12]}"
        _, stored = services.conversation_import(
            owner=owner, format_id="umf", payload=soak_conversation(tag)
        )
        imported[tag] = stored[0].conversation
    return imported


def start_runs(conversations: dict[str, Any]) -> dict[str, str]:
    """Start one replay of each conversation (every other pair ``each``, two turns; the
    rest ``last``; providers alternating). Returns tag -> run id. The runs are enqueued
    when the transaction commits, all at once."""
    from django.db import transaction

    from conversations.services import replays

    started: dict[str, str] = {}
    with transaction.atomic():
        for number, (tag, conversation) in enumerate(conversations.items()):
            run = replays.replay_start(
                owner=conversation.owner,
                conversation=conversation,
                provider=("soak-openai", "soak-anthropic")[number % 2],
                model="fake-1",
                mode=("each", "last")[(number // 2) % 2],
            )
            started[tag] = str(run.pk)
    return started


def unfinished(run_ids: Iterable[str]) -> int:
    """How many of the runs have not ended yet."""
    from conversations import models

    ids = list(run_ids)
    ended = models.ReplayRun.objects.filter(pk__in=ids, status__in=["succeeded", "failed"])
    return len(ids) - ended.count()


@dataclass
class SoakReport:
    """What the database and the provider's log say about a soak."""

    runs: int = 0
    succeeded: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    lost: int = 0
    duplicated_turns: int = 0
    provider_calls: int = 0
    audit: Audit = field(default_factory=Audit)
    violations: list[str] = field(default_factory=list)


def check_soak(started: dict[str, str], requests: Sequence[RecordedRequest]) -> SoakReport:
    """Every check of the soak: runs ended (succeeded, or failed with a reason), no turn
    without its answer or with two, and the provider's log audited."""
    from django.db.models import Count, Sum

    from conversations import models

    report = SoakReport(runs=len(started))
    runs = models.ReplayRun.objects.filter(pk__in=started.values())
    stored = dict(
        models.Message.objects.filter(replay_run__in=runs)
        .values("replay_run")
        .annotate(n=Count("id"))
        .values_list("replay_run", "n")
    )
    for run in runs.annotate(turn_count=Count("turns")):
        messages = stored.get(run.pk, 0)
        if run.status == "succeeded":
            report.succeeded += 1
            if messages != run.turn_count:
                report.violations.append(f"run {run.pk}: {messages} of {run.turn_count} turns")
        elif run.status == "failed":
            report.failed[failure_reason(run.error)] += 1
            if not run.error:
                report.violations.append(f"run {run.pk}: failed without a reason")
        else:
            report.lost += 1
        report.duplicated_turns += max(messages - run.turn_count, 0)
    report.provider_calls = runs.aggregate(total=Sum("provider_calls"))["total"] or 0
    report.audit = audit_requests(requests, run_of=run_tag)
    report.violations += report.audit.violations
    if report.lost:
        report.violations.append(f"{report.lost} run(s) never ended")
    if report.duplicated_turns:
        report.violations.append(f"{report.duplicated_turns} turn(s) stored twice")
    return report


def failure_reason(error: str) -> str:
    """A failed run's reason, in short: the HTTP status, or the kind of failure."""
    if error.startswith("gave up"):
        return "gave up after the last attempt"
    if "not its wire format" in error:
        return "malformed answer"
    status = re.search(r"\(HTTP (\d+)\)", error)
    if status:
        return f"HTTP {status.group(1)}"
    return error.split(":", 1)[0] or "no reason"

"""Browser pages at scale: the list, a search and a 1,000-message conversation.

Fills a PostgreSQL database of its own (``umf_bench_pages`` on the server of DATABASE_URL)
with 100,000 conversations of 20 messages (2,000,000 messages of realistic text, one block
each) for one user, plus one 1,000-message conversation with code, loaded with COPY. The
filled database is kept and reused by the next run (migrated first, so a new migration is
measured on the same data); ``--refill`` fills it anew, ``--drop`` drops it at the end.
Then times requests through the Django test client (the whole stack: middleware, session,
views, selectors, templates), and the CPU time this process spent on each (PostgreSQL's
own time is in the wall clock only):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/umf_archive \
        .venv/bin/python bench/pages.py [--conversations 100000] [--requests 50] [--refill] [--drop]
        [--trashed 5000]

Every list query leaves out the conversations in the trash: ``--trashed N`` moves the N
newest ones there for the run (put back at the end), so that the list's orders must pass
them over, as after a bulk delete; the trash page is timed too.

The conversation page is timed twice: "first view" empties the rendered-message caches
before every request (a page nobody has opened since its import), "cached" does not.

Goals (2-core machine): list and search p95 < 150 ms; the 1,000-message page < 300 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "umfsite.settings")
# BENCH_PAGES_DB: another name, so that two people on one server do not refill each other's.
DB_NAME = os.environ.get("BENCH_PAGES_DB", "umf_bench_pages")
SEARCH_INDEX = "message_search_vector_gin"  # migration 0005
BIG_TITLE = "The 1,000-message conversation"
VOCABULARY = (
    "the a to of and in is that for it with as on be this are by an or from at database "
    "index query table row column plan cache latency request response model token prompt "
    "function tool call result error retry timeout server client deploy build test python "
    "rust postgres redis queue worker schedule memory thread process file upload export "
    "import format json schema field value weather paris tokyo london forecast rain sun "
    "umbrella travel flight hotel price budget invoice customer order shipping carrier "
    "late delivery report chart summary analysis trend growth revenue quarter year month "
    "week day hour minute second because however therefore although meanwhile finally "
    "first then next after before during while until unless please thanks sure great"
)
WORDS = VOCABULARY.split()
CODE = "```python\ndef total(orders):\n    return sum(o.amount for o in orders if o.late)\n```"


def sentence(rng: random.Random) -> str:
    words = rng.choices(WORDS, k=rng.randint(8, 22))
    return " ".join(words).capitalize() + "."


def paragraph(rng: random.Random, sentences: list[str], code: bool) -> str:
    text = " ".join(rng.choices(sentences, k=rng.randint(2, 6)))
    return f"{text}\n\n{CODE}\n\n{rng.choice(sentences)}" if code else text


def admin_url() -> str:
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    return url.rsplit("/", 1)[0] + "/postgres"


def bench_url() -> str:
    return admin_url().rsplit("/", 1)[0] + f"/{DB_NAME}"


def create_database(refill: bool) -> bool:
    """Make sure the bench database exists; True when it is new (empty)."""
    with psycopg.connect(admin_url(), autocommit=True) as connection:
        if refill:
            connection.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        found = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [DB_NAME]
        ).fetchone()
        if found is None:
            connection.execute(f"CREATE DATABASE {DB_NAME}")
    return refill or found is None


def drop_database() -> None:
    from django.db import connections

    connections.close_all()
    with psycopg.connect(admin_url(), autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


def copy_rows(cursor: Any, model: Any, rows: Iterator[dict[str, Any]]) -> int:
    """COPY dicts (by attname) into the model's table; missing columns get the field's
    default, so the script follows schema changes."""
    fields = [f for f in model._meta.concrete_fields if not f.generated]
    columns = ", ".join(f'"{f.column}"' for f in fields)
    defaults = {f.attname: (f.get_default() if f.has_default() else None) for f in fields}
    count = 0
    with cursor.copy(f"COPY {model._meta.db_table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            values = []
            for f in fields:
                value = row.get(f.attname, defaults[f.attname])
                if isinstance(value, dict | list):
                    value = orjson.dumps(value).decode()
                values.append(value)
            copy.write_row(values)
            count += 1
    return count


def conversation_rows(owner_id: int, count: int, rng: random.Random) -> list[dict[str, Any]]:
    from conversations.models import uuid7

    start = datetime(2024, 1, 1, tzinfo=UTC)
    formats = [("openai-chat", "openai", "gpt-4o"), ("anthropic", "anthropic", "claude-sonnet-4-5"),
               ("gemini", "gemini", "gemini-2.5-flash"), ("umf", "", "")]  # fmt: skip
    rows = []
    for index in range(count):
        fmt, provider, model = formats[index % len(formats)]
        created = start + timedelta(minutes=index * 5)
        # Their own dates, spread over three years in no relation to the import order;
        # a quarter of the sources (umf here) give none.
        started = None if fmt == "umf" else start - timedelta(seconds=rng.randint(0, 94_000_000))
        last = started + timedelta(minutes=rng.randint(1, 600)) if started else None
        rows.append({
            "id": uuid7(), "owner_id": owner_id, "title": " ".join(rng.choices(WORDS, k=6))[:80],
            "source_format": fmt, "provider": provider, "model": model,
            "content_hash": uuid.uuid4().hex + uuid.uuid4().hex, "message_count": 20,
            "warning_count": int(index % 7 == 0), "created_at": created, "updated_at": created,
            "started_at": started, "last_message_at": last,
            "parameters": {}, "metadata": {}, "extra": {},
        })  # fmt: skip
    return rows


def message_and_block_rows(
    conversation: dict[str, Any], size: int, rng: random.Random, sentences: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from conversations.models import uuid7

    messages: list[dict[str, Any]] = []
    blocks: list[dict[str, Any]] = []
    parent = None
    for position in range(size):
        role = "user" if position % 2 == 0 else "assistant"
        text = paragraph(rng, sentences, code=role == "assistant" and rng.random() < 0.1)
        message_id = uuid7()
        messages.append({
            "id": message_id, "conversation_id": conversation["id"], "parent_id": parent,
            "position": position, "role": role, "search_text": text, "provider": "",
            "model": conversation["model"] or None if role == "assistant" else None,
            "metadata": {}, "extra": {},
            "usage": {"prompt_tokens": 40 * position, "completion_tokens": 60}
            if role == "assistant" else None,
        })  # fmt: skip
        blocks.append({"id": uuid7(), "message_id": message_id, "index": 0, "type": "text",
                       "text": text, "payload": {}})  # fmt: skip
        parent = message_id
    return messages, blocks


def fill(owner_id: int, count: int, connection: Any) -> Any:
    from conversations import models

    rng = random.Random(7)
    sentences = [sentence(rng) for _ in range(5000)]
    conversations = conversation_rows(owner_id, count, rng)
    big = conversation_rows(owner_id, 1, rng)[0]
    big.update(title=BIG_TITLE, message_count=1000,
               created_at=datetime(2023, 1, 1, tzinfo=UTC))  # fmt: skip
    with connection.cursor() as cursor:
        # Built once after loading rather than kept up to date row by row.
        cursor.execute(f"DROP INDEX IF EXISTS {SEARCH_INDEX}")
        copy_rows(cursor, models.Conversation, iter([*conversations, big]))
        buffer_messages: list[dict[str, Any]] = []
        buffer_blocks: list[dict[str, Any]] = []
        for index, conversation in enumerate([*conversations, big]):
            size = 1000 if conversation is big else 20
            messages, blocks = message_and_block_rows(conversation, size, rng, sentences)
            buffer_messages += messages
            buffer_blocks += blocks
            if len(buffer_messages) >= 200_000 or conversation is big:
                copy_rows(cursor, models.Message, iter(buffer_messages))
                copy_rows(cursor, models.ContentBlock, iter(buffer_blocks))
                buffer_messages, buffer_blocks = [], []
                print(f"  {index + 1} conversations loaded", flush=True)
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute(
            f"CREATE INDEX {SEARCH_INDEX} ON conversations_message USING gin (search_vector)"
        )
        cursor.execute("VACUUM ANALYZE")
    return big["id"]


Timings = tuple[list[float], list[float]]


def timed(client: Any, path: str, runs: int, before: Any = None) -> Timings:
    """Wall-clock and CPU (this process: Django, templates) milliseconds of each request.
    The CPU time moves less than the wall clock when other work shares the machine."""
    wall, cpu = [], []
    for _ in range(runs):
        if before is not None:
            before()
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(path)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200, (path, response.status_code)
    return wall, cpu


def report(name: str, timings: Timings, goal: float) -> None:
    ordered = sorted(timings[0])
    p50 = statistics.median(ordered)
    p95 = ordered[max(int(len(ordered) * 0.95) - 1, 0)]
    cpu = statistics.median(timings[1])
    verdict = "ok" if p95 < goal else "MISSED"
    print(
        f"{name:<40} p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  cpu p50 {cpu:6.1f} ms  "
        f"(goal p95 < {goal:.0f} ms: {verdict})"
    )


def prepare(args: argparse.Namespace) -> tuple[Any, Any]:
    """The bench user and the id of its 1,000-message conversation, filling the database
    when it is new or does not hold what was asked."""
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from conversations import models

    call_command("migrate", verbosity=0)
    user = User.objects.filter(username="bench").first()
    big = models.Conversation.objects.filter(owner=user, title=BIG_TITLE).first()
    if user is not None and big is not None:
        held = models.Conversation.objects.filter(owner=user).count() - 1
        if held == args.conversations:
            print(f"reusing {DB_NAME}: {held} conversations (--refill to fill it anew)")
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")  # a migration may have rewritten a table
            return user, big.pk
    connection.close()
    create_database(refill=True)
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench", password="bench")
    started = time.perf_counter()
    big_id = fill(user.pk, args.conversations, connection)
    print(f"loaded in {time.perf_counter() - started:.0f} s")
    return user, big_id


def trash_newest(user: Any, count: int) -> int:
    """Move the user's ``count`` newest conversations to the trash (not the big one)."""
    from conversations import models, selectors

    if not count:
        return 0
    newest = selectors.conversation_list(owner=user).exclude(title=BIG_TITLE)
    ids = list(newest.values_list("pk", flat=True)[:count])
    models.Conversation.objects.filter(pk__in=ids).update(deleted_at=datetime.now(UTC))
    return len(ids)


def untrash() -> None:
    from conversations import models

    models.Conversation.objects.filter(deleted_at__isnull=False).update(deleted_at=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--conversations", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--refill", action="store_true", help="fill the database anew")
    parser.add_argument("--drop", action="store_true", help="drop the database afterwards")
    parser.add_argument(
        "--trashed", type=int, default=0, help="conversations in the trash during the run"
    )
    args = parser.parse_args()
    create_database(refill=args.refill)
    os.environ["DATABASE_URL"] = bench_url()
    import django

    django.setup()
    from django.test import Client

    from conversations.templatetags import umf_thread

    try:
        user, big_id = prepare(args)
        trashed = trash_newest(user, args.trashed)
        client = Client()
        client.force_login(user)
        client.get("/")  # warm up: templates compiled, connection open
        runs = args.requests
        report("list /", timed(client, "/", runs), 150)
        report(
            "list page 20, sorted by messages", timed(client, "/?page=20&sort=messages", runs), 150
        )
        report("list page 20, oldest first", timed(client, "/?page=20&sort=oldest", runs), 150)
        report(
            "list From/To 2023 (own dates)",
            timed(client, "/?after=2023-01-01&before=2023-12-31", runs),
            150,
        )
        report(
            "search ?q=umbrella, From 2023, oldest",
            timed(client, "/?q=umbrella&after=2023-01-01&sort=oldest", runs),
            150,
        )
        report("search ?q=umbrella", timed(client, "/?q=umbrella", runs), 150)
        report(
            "search ?q=invoice+carrier (two words)", timed(client, "/?q=invoice+carrier", runs), 150
        )
        report("search ?q=zanzibar (no message has it)", timed(client, "/?q=zanzibar", runs), 150)
        page = f"/conversations/{big_id}/"
        clear = umf_thread.clear_render_caches
        report("1,000-message page, first view", timed(client, page, runs, clear), 300)
        report("1,000-message page, cached", timed(client, page, runs), 300)
        report(f"trash /trash/ ({trashed} in it)", timed(client, "/trash/", runs), 150)
    finally:
        untrash()
        if args.drop:
            drop_database()


if __name__ == "__main__":
    main()

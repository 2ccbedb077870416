"""Bulk import of a ChatGPT data export through the job path, against a raw COPY.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/umf_archive \\
        .venv/bin/python bench/ingest.py --conversations 20000

Writes a synthetic export zip as ChatGPT gives it in 2026 (``conversations.json``, about
10 KB a conversation: 20,000 make about 200 MB; one conversation in ten shows an image and
one in seven attaches a PDF, as ``file-<id>.dat`` files named in
``conversation_asset_file_names.json``, a few files shared by many conversations so that
storing them by sha256 is measured), imports it with the same code a Celery worker runs
(``import_job_execute``, in a child process so its peak RSS is its own), then inserts the same
conversation, message and block rows with a raw psycopg COPY into the same tables, indexes
and constraints included, and rolls that back (the physical limit), then imports the file a
second time. Prints
messages per second, the ratio to COPY, the importer's peak RSS, the attachments stored
(distinct by sha256, against the blocks that point at them) and the second import's time
and added rows. Goals (issue 6): >= 50% of the COPY rate, peak RSS < 300 MB, a second
import adding 0 rows in < 10% of the first's time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "umfsite.settings")
# BENCH_DATABASE: another name, so that two people on one server do not drop each other's.
DATABASE = os.environ.get("BENCH_DATABASE", "umf_bench_ingest")
TURNS = 10  # user/assistant pairs per conversation
IMAGES = 25  # distinct images; conversation i (i % 10 == 0) shows image i // 10 % IMAGES
DOCUMENTS = 12  # distinct PDFs; conversation i (i % 7 == 0) attaches PDF i // 7 % DOCUMENTS
BATCH = 250  # conversations a COPY holds (the importer's batch)


def node(
    node_id: str, parent: str | None, child: str | None, role: str, text: str, t: float
) -> dict:
    return {
        "id": node_id,
        "message": {
            "id": node_id,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": t,
            "update_time": None,
            "content": {"content_type": "text", "parts": [text]},
            "status": "finished_successfully",
            "end_turn": role == "assistant",
            "weight": 1.0,
            "metadata": {"model_slug": "gpt-4o"} if role == "assistant" else {},
            "recipient": "all",
            "channel": None,
        },
        "parent": parent,
        "children": [child] if child else [],
    }


def conversation(index: int) -> dict:
    ids = [f"{index:06d}-{n:03d}-{uuid.UUID(int=index * 1000 + n)}" for n in range(2 * TURNS)]
    mapping = {"root": {"id": "root", "message": None, "parent": None, "children": [ids[0]]}}
    sentence = "The archive keeps every message of every conversation exactly as it came. "
    for n, node_id in enumerate(ids):
        parent = ids[n - 1] if n else "root"
        child = ids[n + 1] if n + 1 < len(ids) else None
        role = "user" if n % 2 == 0 else "assistant"
        text = f"[{index}/{n}] " + sentence * (2 if role == "user" else 6)
        mapping[node_id] = node(node_id, parent, child, role, text, 1.7e9 + index * 60 + n)
    return {
        "title": f"Conversation {index}",
        "create_time": 1.7e9 + index * 60,
        "update_time": 1.7e9 + index * 60 + 59,
        "mapping": mapping,
        "current_node": ids[-1],
        "conversation_id": f"conv-{index:06d}",
        "id": f"conv-{index:06d}",
        "default_model_slug": "gpt-4o",
    }


def image_bytes(number: int) -> bytes:
    """A distinct small PNG (its bytes, not its pixels, differ)."""
    header = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489")
    return header + f"bench image {number}".encode() * 40


def document_bytes(number: int) -> bytes:
    return b"%PDF-1.7\n" + f"bench document {number}\n".encode() * 200 + b"%%EOF\n"


def with_assets(entry: dict, index: int) -> dict:
    """The first question shows an image and attaches a PDF, by the conversation's number."""
    first = entry["mapping"][entry["mapping"]["root"]["children"][0]]["message"]
    if index % 10 == 0:
        pointer = f"sediment://file_img{index // 10 % IMAGES:05d}"
        part = {"content_type": "image_asset_pointer", "asset_pointer": pointer, "size_bytes": 1}
        first["content"] = {
            "content_type": "multimodal_text",
            "parts": [part, *first["content"]["parts"]],
        }
    if index % 7 == 0:
        attachment = {"id": f"file-doc{index // 7 % DOCUMENTS:05d}", "name": "plan.pdf", "size": 1}
        first["metadata"] = {"attachments": [attachment]}
    return entry


def write_export(path: Path, count: int) -> tuple[int, int]:
    """The export zip, its size and the bytes of its distinct files."""
    names = {}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("conversations.json", "w") as out:
            out.write(b"[")
            for index in range(count):
                if index:
                    out.write(b",")
                out.write(json.dumps(with_assets(conversation(index), index)).encode())
            out.write(b"]")
        files = {f"file_img{n:05d}": image_bytes(n) for n in range(min(IMAGES, count))}
        files |= {f"file-doc{n:05d}": document_bytes(n) for n in range(min(DOCUMENTS, count))}
        for file_id, data in files.items():
            archive.writestr(f"{file_id}.dat", data)
            names[file_id] = "photo.png" if file_id.startswith("file_img") else "plan.pdf"
        archive.writestr("conversation_asset_file_names.json", json.dumps(names))
    return path.stat().st_size, sum(len(data) for data in files.values())


def child_import(path: str) -> None:
    """Run in a child process: one import through the job path; prints a JSON summary."""
    import resource

    import django

    django.setup()
    from django.contrib.auth.models import User

    from conversations import models
    from conversations.services import import_jobs

    owner, _ = User.objects.get_or_create(username="bench")
    with open(path, "rb") as upload:
        job = import_jobs.import_job_create(
            owner=owner,
            upload=upload,
            filename="export.zip",
            format_id="chatgpt-export",
            enqueue=False,
        )
    messages_before = models.Message.objects.count()
    started, cpu_started = time.perf_counter(), time.process_time()
    summary = import_jobs.import_job_execute(job_id=job.pk)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    added = models.Message.objects.count() - messages_before
    attachments = models.Attachment.objects.all()
    pointing = models.ContentBlock.objects.filter(attachment__isnull=False).count()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "seconds": elapsed,
                "cpu": cpu,
                "messages": added,
                "peak_mb": peak_kb / 1024,
                "attachments": attachments.count(),
                "attachment_bytes": sum(len(a.data) for a in attachments.only("data")),
                "blocks_with_files": pointing,
                "summary": summary,
            }
        )
    )


def run_child(path: Path, env: dict[str, str]) -> dict:
    result = subprocess.run(
        [sys.executable, __file__, "--child", str(path)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode:
        sys.exit(f"import failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def copy_baseline(url: str, count: int) -> tuple[float, int]:
    """COPY the same conversation, message and block rows into the archive's own tables,
    with their indexes and constraints (foreign keys checked row by row), in one
    transaction that is rolled back afterwards: what the database itself needs to store
    them, with no application code in the way."""
    import psycopg
    from psycopg.types.json import Jsonb

    with psycopg.connect(url) as connection:
        connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
        owner = connection.execute(
            "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name,"
            " email, is_staff, is_active, date_joined)"
            " VALUES ('', false, 'copy-baseline', '', '', '', false, true, now()) RETURNING id"
        ).fetchone()
        assert owner is not None
        rows = 0
        started = time.perf_counter()
        with connection.cursor() as cursor:
            for first in range(0, count, BATCH):
                conversations, messages, blocks = [], [], []
                for index in range(first, min(first + BATCH, count)):
                    data = conversation(index)
                    conv_id = uuid.uuid4()
                    parent = None
                    nodes = list(data["mapping"].items())[1:]
                    for position, (key, item) in enumerate(nodes):
                        message = item["message"]
                        message_id = uuid.uuid4()
                        text = message["content"]["parts"][0]
                        messages.append(
                            (
                                message_id,
                                conv_id,
                                parent,
                                position,
                                message["author"]["role"],
                                key,
                                Jsonb({}),
                                Jsonb({}),
                                text,
                                "",
                                "",
                            )
                        )
                        blocks.append((uuid.uuid4(), message_id, 0, "text", text, Jsonb({})))
                        parent = message_id
                    conversations.append(
                        (
                            conv_id,
                            owner[0],
                            data["title"],
                            "chatgpt-export",
                            data["id"],
                            "openai",
                            "gpt-4o",
                            uuid.uuid4().hex * 2,
                            Jsonb({}),
                            Jsonb({}),
                            Jsonb({}),
                            len(nodes),
                            0,
                            "now",
                            "now",
                        )
                    )
                for statement, batch in (
                    (
                        "COPY conversations_conversation (id, owner_id, title, source_format,"
                        " source_key, provider, model, content_hash, parameters, metadata, extra,"
                        " message_count, warning_count, created_at, updated_at) FROM STDIN",
                        conversations,
                    ),
                    (
                        "COPY conversations_message (id, conversation_id, parent_id, position,"
                        " role, source_id, metadata, extra, search_text, search_cjk, provider)"
                        " FROM STDIN",
                        messages,
                    ),
                    (
                        "COPY conversations_contentblock (id, message_id, index, type, text,"
                        " payload) FROM STDIN",
                        blocks,
                    ),
                ):
                    with cursor.copy(statement) as copy:
                        for row in batch:
                            copy.write_row(row)
                rows += len(messages)
        elapsed = time.perf_counter() - started
        connection.rollback()
        return elapsed, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=20000)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child_import(args.child)
        return
    import dj_database_url
    import psycopg

    base = dj_database_url.parse(os.environ.get("DATABASE_URL", ""))
    if "postgresql" not in base["ENGINE"]:
        sys.exit("set DATABASE_URL to a PostgreSQL server")
    admin_url = f"postgresql://{base['USER']}@{base['HOST']}:{base['PORT'] or 5432}/postgres"
    url = f"postgresql://{base['USER']}@{base['HOST']}:{base['PORT'] or 5432}/{DATABASE}"
    with psycopg.connect(admin_url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {DATABASE}")
    env = {**os.environ, "DATABASE_URL": url.replace("postgresql://", "postgres://")}
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "export.zip"
        size, file_bytes = write_export(path, args.conversations)
        first = run_child(path, env)
        copy_seconds, copy_rows = copy_baseline(url, args.conversations)
        second = run_child(path, env)
    rate = first["messages"] / first["seconds"]
    copy_rate = copy_rows / copy_seconds
    load = os.getloadavg()[0]
    print(f"load average at the end: {load:.1f} (this machine has {os.cpu_count()} cores)")
    print(
        f"export: {args.conversations} conversations, {size / 1e6:.0f} MB, "
        f"{first['messages']} messages"
    )
    print(
        f"import (job path): {first['seconds']:.1f} s ({first['cpu']:.1f} s CPU in the importer), "
        f"{rate:,.0f} messages/s, peak RSS {first['peak_mb']:.0f} MB"
    )
    print(
        f"raw COPY:          {copy_seconds:.1f} s, {copy_rate:,.0f} messages/s "
        f"-> import at {rate / copy_rate:.0%} of COPY"
    )
    print(
        f"attachments:       {first['attachments']} stored ({first['attachment_bytes']:,} bytes; "
        f"the zip holds {file_bytes:,} bytes of distinct files) for "
        f"{first['blocks_with_files']} blocks that show them"
    )
    print(
        f"second import:     {second['seconds']:.1f} s ({second['cpu']:.1f} s CPU; "
        f"{second['seconds'] / first['seconds']:.0%} of the first), "
        f"{second['messages']} messages added; {second['summary']}"
    )


if __name__ == "__main__":
    main()

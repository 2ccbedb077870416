"""Import and export conversations of 10, 1,000 and 10,000 messages through the REST API.

Runs the whole request path in-process (URL routing, auth, JSON parsing with orjson,
parsing into UMF, the bulk insert, the selectors, rendering) against the PostgreSQL of
DATABASE_URL, in a database of its own (``<name>_bench``, dropped afterwards).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/umf_archive \
        .venv/bin/python bench/api_roundtrip.py

Targets (issue 2, 2-core machine): import of 10,000 messages < 2 s, its export < 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "umfsite.settings")
# The benchmark imports far more than the per-user rate limit allows a person.
os.environ.setdefault("UMF_RATE_IMPORTS", "1000000/min")


def umf_conversation(size: int, tag: str) -> dict[str, Any]:
    """A UMF conversation of ``size`` messages: user turns, tool calls and their results."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": f"Benchmark {tag}."}]
    turn = 0
    while len(messages) < size:
        call = f"call_{tag}_{turn}"
        messages.append({"role": "user", "content": f"Question {turn}: what is {turn} squared?"})
        messages.append(
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Let me compute that."},
                    {"type": "tool_use", "id": call, "name": "square", "input": {"n": turn}},
                ],
            }
        )
        messages.append(
            {
                "role": "tool",
                "tool_call_id": call,
                "content": [{"type": "tool_result", "tool_use_id": call, "content": str(turn**2)}],
            }
        )
        messages.append({"role": "assistant", "content": f"{turn} squared is {turn**2}."})
        turn += 1
    return {
        "messages": messages[:size],
        "tools": [{"name": "square", "parameters": {"type": "object"}}],
    }


def openai_chat_conversation(size: int, tag: str) -> dict[str, Any]:
    """An OpenAI Chat request of ``size`` messages with tool calls."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": f"Benchmark {tag}."}]
    turn = 0
    while len(messages) < size:
        call = f"call_{tag}_{turn}"
        messages += [
            {"role": "user", "content": f"Question {turn}: what is {turn} squared?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call,
                        "type": "function",
                        "function": {"name": "square", "arguments": f'{{"n": {turn}}}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": call, "content": str(turn**2)},
            {"role": "assistant", "content": f"{turn} squared is {turn**2}."},
        ]
        turn += 1
    messages = messages[:size]
    while messages[-1].get("tool_calls"):  # never end on an unanswered call
        messages.pop()
    return {
        "model": "gpt-4o",
        "messages": messages,
        "tools": [{"type": "function", "function": {"name": "square", "parameters": {}}}],
    }


GENERATORS = {"umf": umf_conversation, "openai-chat": openai_chat_conversation}


def measure(client: Any, fmt: str, size: int, repeats: int) -> dict[str, float]:
    imports, exports = [], []
    for attempt in range(repeats):
        payload = GENERATORS[fmt](size, f"{size}x{attempt}x{time.time_ns()}")
        started = time.perf_counter()
        response = client.post(
            "/api/v1/conversations/import",
            {"format": fmt, "payload": payload},
            content_type="application/json",
        )
        imports.append(time.perf_counter() - started)
        assert response.status_code == 201, response.content[:500]
        pk = response.json()["conversations"][0]["id"]
        started = time.perf_counter()
        exported = client.get(f"/api/v1/conversations/{pk}/export", {"format": fmt})
        exports.append(time.perf_counter() - started)
        assert exported.status_code == 200
        assert exported.json()["payload"] == payload, "export differs from the import"
    count = len(payload["messages"])
    best_import = min(imports)
    return {
        "messages": count,
        "import_s": statistics.median(imports),
        "import_best_s": best_import,
        "messages_per_s": count / statistics.median(imports),
        "export_ms": statistics.median(exports) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,1000,10000")
    parser.add_argument("--formats", default="umf,openai-chat")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import django
    from django.conf import settings

    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        sys.exit("set DATABASE_URL to a PostgreSQL server (the archive's store of record)")
    django.setup()
    from django.test.utils import get_runner, setup_test_environment

    from providers import formats

    setup_test_environment()
    runner = get_runner(settings)(verbosity=0, keepdb=False)
    settings.DATABASES["default"]["TEST"]["NAME"] = settings.DATABASES["default"]["NAME"] + "_bench"
    old = runner.setup_databases()
    try:
        run(args, formats)
    finally:
        runner.teardown_databases(old)


def run(args: argparse.Namespace, formats: Any) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    user = User.objects.create_user("bench")
    client = Client()
    client.force_login(user)
    known = {fmt.id for fmt in formats.all_formats()}
    print(f"{'format':<12} {'messages':>9} {'import s':>9} {'msg/s':>9} {'export ms':>10}")
    for fmt in args.formats.split(","):
        if fmt not in known:
            print(f"{fmt:<12} (format not available)")
            continue
        for size in (int(value) for value in args.sizes.split(",")):
            result = measure(client, fmt, size, args.repeats)
            print(
                f"{fmt:<12} {result['messages']:>9} {result['import_s']:>9.3f} "
                f"{result['messages_per_s']:>9.0f} {result['export_ms']:>10.1f}"
            )


if __name__ == "__main__":
    main()

"""The import, convert and export cases of ``bench/abuse.py`` at several body sizes of
realistic conversations (prose of a few hundred words a message, a tool call and its
result now and then), each on a server process of its own: the peak RSS growth over the
body size is the ratio issue 21 bounds (about 10x). A process keeps the memory it freed,
so a case run after another would reuse it and look smaller than it is.

Short messages at the message cap are measured and printed, not held to 10x: a message of
a few words costs Python about 4 KB while it is read, checked and stored (the parsed JSON
object, the UMF models, the row dicts), so their ratio is 35-50x whatever the code does
short of streaming every stage; the caps bound it in absolute terms instead (about 100 MB
at UMF_MAX_MESSAGES).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import orjson

SIZES_MB = (1, 8, 32)
RATIO_GOAL = 10.0  # peak RSS growth over the body size (issue 21)
WORDS = ["the", "a", "of", "archive", "model", "answer", "tool", "call", "result", "text"]


def realistic(megabytes: int) -> list[dict[str, Any]]:
    """UMF messages of about ``megabytes`` MB of JSON: a question and its answer, and in
    every fifth exchange a tool call and its result before the answer."""
    rng = random.Random(megabytes)

    def prose() -> str:
        return " ".join(
            rng.choice(WORDS) if rng.random() < 0.5 else f"{rng.getrandbits(32):x}"
            for _ in range(rng.randint(150, 450))
        )

    messages: list[dict[str, Any]] = []
    size, target, exchange = 0, megabytes * 1024 * 1024, 0
    while size < target:
        added = [{"role": "user", "content": prose()}]
        if exchange % 5 == 4:
            call = f"call_{exchange}"
            use = {"type": "tool_use", "id": call, "name": "lookup", "input": {"q": prose()[:80]}}
            result = {"type": "tool_result", "tool_use_id": call, "content": prose()}
            added += [
                {"role": "assistant", "content": [{"type": "text", "text": "Looking."}, use]},
                {"role": "tool", "tool_call_id": call, "content": [result]},
            ]
        added.append({"role": "assistant", "content": prose()})
        messages += added
        size += len(orjson.dumps(added))
        exchange += 1
    return messages


def short(count: int) -> list[dict[str, Any]]:
    """``count`` chat messages of a few words each: the most objects per byte a
    conversation under the message cap can hold, where Python's per-object cost shows."""
    rng = random.Random(count)
    return [
        {
            "role": ("user", "assistant")[index % 2],
            "content": " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 20))),
        }
        for index in range(count)
    ]


def sized_cases(
    case: Callable[..., Any], api_json: Callable[..., Any], keep_id: Callable[[str], Any]
) -> list[Any]:
    """For each size (and for short messages at the cap): import it, convert it (umf ->
    anthropic), export it (to anthropic)."""
    payloads = {f"realistic-{megabytes}MB": realistic(megabytes) for megabytes in SIZES_MB}
    payloads["short-20000"] = short(20_000)
    cases = []
    for name, payload in payloads.items():
        goal = None if name.startswith("short") else RATIO_GOAL
        body = len(orjson.dumps({"format": "umf", "payload": payload}))
        cases += [
            case(
                f"import-{name}",
                "served",
                api_json("/api/v1/conversations/import", {"format": "umf", "payload": payload}),
                f"import of {len(payload):,} messages ({body / 1024**2:.1f} MB)",
                body_bytes=body,
                ratio_goal=goal,
                keep=keep_id(name),
            ),
            case(
                f"convert-{name}",
                "served",
                api_json("/api/v1/convert", {"from": "umf", "to": "anthropic", "payload": payload}),
                "the same converted to anthropic",
                body_bytes=body,
                ratio_goal=goal,
            ),
            case(
                f"export-{name}",
                "served",
                _export(name),
                "the same exported to anthropic",
                body_bytes=body,
                ratio_goal=goal,
            ),
        ]
    return cases


def _export(name: str) -> Callable[[Any, dict[str, Any]], Any]:
    return lambda client, state: client.get(
        f"/api/v1/conversations/{state[name]}/export?format=anthropic"
    )

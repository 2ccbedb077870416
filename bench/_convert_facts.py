"""What a converted conversation still carries: the facts of an OpenAI Chat request
(system text, tool calls and their results, images, parameters...) and, for each, whether
an output holds it or a drift warning says it was lost. Used by ``bench/convert.py``."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass
class Fact:
    kind: str
    text: str  # what is looked for
    check: Callable[[Any], bool]
    hints: tuple[str, ...]  # words a warning about this loss would carry


def _walk(node: Any) -> Iterator[tuple[str | None, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield key, value
            yield from _walk(value)
    elif isinstance(node, list):
        for item in node:
            yield None, item
            yield from _walk(item)


def _strings(node: Any) -> str:
    return json.dumps(node, default=str, ensure_ascii=False)


def _contains(value: str) -> Callable[[Any], bool]:
    return lambda out: value in _strings(out)


SYSTEM_KEYS = {"system", "system_instruction", "systemInstruction"}
PARAM_KEYS = {
    "temperature": {"temperature"},
    "max_tokens": {"max_tokens", "maxTokens", "max_output_tokens", "maxOutputTokens"},
    "top_p": {"top_p", "topP"},
    "stop": {"stop", "stop_sequences", "stopSequences"},
    "seed": {"seed"},
}


def _turns(out: Any) -> list[Any]:
    return list(out.get("messages") or out.get("contents") or [])


def _system_on_top(text: str) -> Callable[[Any], bool]:
    return lambda out: any(text in _strings(out.get(key)) for key in SYSTEM_KEYS if key in out)


def _param(name: str, value: Any) -> Callable[[Any], bool]:
    def check(out: Any) -> bool:
        for key, found in _walk(out):
            if key in PARAM_KEYS[name] and (found == value or found == [value] or value == found):
                return True
        return False

    return check


def _together(*values: str) -> Callable[[Any], bool]:
    return lambda out: any(all(v in _strings(turn) for v in values) for turn in _turns(out))


def _result_linked(call_id: str, result: str) -> Callable[[Any], bool]:
    """The result sits in a block of its own that names its call (by id)."""

    def check(out: Any) -> bool:
        for _key, node in _walk(out):
            text = _strings(node)
            if (
                isinstance(node, dict)
                and result in text
                and call_id in text
                and len(re.findall(r"result_\d+_[ab]", text)) == 1
            ):
                return True
        return False

    return check


def facts(payload: dict[str, Any], png_b64: str, params: dict[str, Any]) -> list[Fact]:
    found: list[Fact] = []
    seen_kinds: set[str] = set()

    def add(kind: str, text: str, check: Callable[[Any], bool], *hints: str) -> None:
        if kind not in seen_kinds:  # one representative of each kind
            seen_kinds.add(kind)
            found.append(Fact(kind, text, check, hints))

    for i, msg in enumerate(payload["messages"]):
        role, content = msg["role"], msg.get("content")
        if role == "system" and i == 0:
            add("system text", content, _contains(content), "system")
            add("system at top level", content, _system_on_top(content), "system")
        elif role == "developer":
            add("developer message", content, _contains(content), "developer")
        elif role == "user" and isinstance(content, list):
            for part in content:
                url = part.get("image_url", {}).get("url", "")
                if url.startswith("data:"):
                    add("image data URI", "<png bytes>", _contains(png_b64[:40]), "image")
                elif url:
                    add("image by URL", url, _contains(url), "image", "url")
        if role == "user" and "name" in msg:
            add("user `name`", msg["name"], _contains(msg["name"]), "name")
        for call in msg.get("tool_calls") or []:
            args = json.loads(call["function"]["arguments"])
            add("tool-call id", call["id"], _contains(call["id"]), "id")
            add("tool-call name", call["function"]["name"], _contains("get_time"), "name")
            first = next(iter(args.values()))
            add("tool-call arguments", first, _contains(first), "argument")
        if len(msg.get("tool_calls") or []) > 1:
            vals = [
                next(iter(json.loads(c["function"]["arguments"]).values()))
                for c in msg["tool_calls"]
            ]
            add("parallel calls in one turn", " + ".join(vals), _together(*vals), "parallel")
        if role == "tool":
            add("tool result", content, _contains(content), "result")
            add(
                "tool result -> its call id",
                msg["tool_call_id"],
                _result_linked(msg["tool_call_id"], content),
                "tool_call_id",
                "id",
            )
    for tool in payload["tools"]:
        fn = tool["function"]
        add("tool description", fn["description"], _contains(fn["description"]), "description")
    for name, value in params.items():
        add(f"parameter {name}", str(value), _param(name, value), name)
    return found


def warned(fact: Fact, warnings: list[Any]) -> bool:
    for warning in warnings:
        dump = _strings(warning.model_dump(mode="json")).lower()
        if fact.text.lower() in dump or any(hint.lower() in dump for hint in fact.hints):
            return True
    return False

"""How fast can a UMF value be? Pydantic, msgspec and slotted dataclasses, side by side.

A conversion builds one UMF value per message and block, reads it back, and the archive
writes it as UMF JSON. This times those three steps for one typical message (an assistant
turn with a text block and a tool call, the block and message ``extra`` filled in) with
each way of holding it:

* ``umf keyword init``: ``umf.Message(role=..., content=[...])`` as the format modules
  build UMF values (whatever ``providers.umf`` makes of that);
* ``pydantic model_validate``: the same message validated from a dict, every value
  checked by pydantic-core (what an edge does with untrusted UMF);
* ``pydantic model_construct``: the same classes, nothing checked;
* ``msgspec Struct`` and ``slotted dataclass``: the same fields in the other two libraries;
* ``dict``: plain dicts, the floor of any Python value.

Serialisation is to the UMF JSON (defaults left out), in each library's fastest way.

    .venv/bin/python bench/umf_core.py [--number 20000] [--repeats 5]

msgspec is optional (``pip install msgspec``): without it, its row is left out.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from providers import umf

EXTRA = {"openai-chat": {"$content": "string"}}
CALL_EXTRA = {"openai-chat": {"$type": "absent"}}
ARGS = '{"city": "Paris", "unit": "celsius"}'
INPUT = {"city": "Paris", "unit": "celsius"}


# --- the same three types in each library ------------------------------------------------


@dataclasses.dataclass(slots=True, kw_only=True)
class DText:
    text: str
    citations: list[dict[str, Any]] | None = None
    extra: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    type: str = "text"


@dataclasses.dataclass(slots=True, kw_only=True)
class DToolUse:
    id: str
    name: str
    input: Any = dataclasses.field(default_factory=dict)
    raw_arguments: str | None = None
    extra: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    type: str = "tool_use"


@dataclasses.dataclass(slots=True, kw_only=True)
class DMessage:
    role: str
    content: list[Any] = dataclasses.field(default_factory=list)
    name: str | None = None
    tool_call_id: str | None = None
    id: str | None = None
    model: str | None = None
    metadata: dict[str, Any] = dataclasses.field(default_factory=dict)
    extra: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)


def dataclass_json(value: Any) -> Any:
    """A dataclass as UMF JSON: fields at their default left out (type always written)."""
    if isinstance(value, list):
        return [dataclass_json(item) for item in value]
    if not dataclasses.is_dataclass(value):
        return value
    out: dict[str, Any] = {}
    for field in dataclasses.fields(value):
        item = getattr(value, field.name)
        if field.name != "type" and item in (None, {}, []):
            continue
        out[field.name] = dataclass_json(item)
    return out


def msgspec_types() -> dict[str, Any] | None:
    try:
        import msgspec
    except ImportError:
        return None

    options = {"kw_only": True, "omit_defaults": True, "tag_field": "type"}

    # The tag is written by msgspec, not held: a class attribute answers ``block.type``.
    class MText(msgspec.Struct, tag="text", **options):  # type: ignore[call-arg]
        type: ClassVar[str] = "text"
        text: str
        citations: list[dict[str, Any]] | None = None
        extra: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)

    class MToolUse(msgspec.Struct, tag="tool_use", **options):  # type: ignore[call-arg]
        type: ClassVar[str] = "tool_use"
        id: str
        name: str
        input: Any = msgspec.field(default_factory=dict)
        raw_arguments: str | None = None
        extra: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)

    class MMessage(msgspec.Struct, kw_only=True, omit_defaults=True):
        role: str
        content: list[MText | MToolUse] = msgspec.field(default_factory=list)
        name: str | None = None
        tool_call_id: str | None = None
        id: str | None = None
        model: str | None = None
        metadata: dict[str, Any] = msgspec.field(default_factory=dict)
        extra: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)

    return {"text": MText, "tool": MToolUse, "message": MMessage, "encode": msgspec.json.encode}


# --- one message, built, read and written each way ---------------------------------------


def build_with(text: Any, tool: Any, message: Any) -> Callable[[], Any]:
    def build() -> Any:
        return message(
            role="assistant",
            content=[
                text(text="Let me look that up.", extra={"openai-chat": {"$content": "string"}}),
                tool(
                    id="call_1",
                    name="get_weather",
                    input={"city": "Paris", "unit": "celsius"},
                    raw_arguments=ARGS,
                    extra={"openai-chat": {"$type": "absent"}},
                ),
            ],
            extra={"openai-chat": {}},
        )

    return build


def construct_build() -> Any:
    return umf.Message.model_construct(
        role="assistant",
        content=[
            umf.TextBlock.model_construct(
                text="Let me look that up.", extra={"openai-chat": {"$content": "string"}}
            ),
            umf.ToolUseBlock.model_construct(
                id="call_1",
                name="get_weather",
                input={"city": "Paris", "unit": "celsius"},
                raw_arguments=ARGS,
                extra={"openai-chat": {"$type": "absent"}},
            ),
        ],
        extra={"openai-chat": {}},
    )


def validated_build() -> Any:
    return umf.Message.model_validate(
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Let me look that up.", "extra": EXTRA},
                {
                    "type": "tool_use",
                    "id": "call_1",
                    "name": "get_weather",
                    "input": INPUT,
                    "raw_arguments": ARGS,
                    "extra": CALL_EXTRA,
                },
            ],
            "extra": {"openai-chat": {}},
        }
    )


def dict_build() -> Any:
    return {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me look that up.", "extra": {"openai-chat": {}}},
            {
                "type": "tool_use",
                "id": "call_1",
                "name": "get_weather",
                "input": {"city": "Paris", "unit": "celsius"},
                "raw_arguments": ARGS,
                "extra": {"openai-chat": {"$type": "absent"}},
            },
        ],
        "extra": {"openai-chat": {}},
    }


def read_attributes(message: Any) -> Any:
    """What a renderer reads of the message: role, extra, and each block's fields."""
    total = [message.role, message.name, message.extra]
    for block in message.content:
        total.append(block.type)
        total.append(block.extra)
    call = message.content[1]
    total += [call.id, call.name, call.input, call.raw_arguments]
    return total


def read_keys(message: Any) -> Any:
    total = [message["role"], message.get("name"), message["extra"]]
    for block in message["content"]:
        total.append(block["type"])
        total.append(block["extra"])
    call = message["content"][1]
    total += [call["id"], call["name"], call["input"], call["raw_arguments"]]
    return total


def pydantic_json(message: Any) -> bytes:
    return message.model_dump_json(exclude_defaults=True)  # type: ignore[no-any-return]


def ways() -> list[tuple[str, Callable[[], Any], Callable[[Any], Any], Callable[[Any], Any]]]:
    """(name, build, read, write) for each way of holding a UMF message."""
    found: list[tuple[str, Callable[[], Any], Callable[[Any], Any], Callable[[Any], Any]]] = [
        (
            "umf keyword init",
            build_with(umf.TextBlock, umf.ToolUseBlock, umf.Message),
            read_attributes,
            pydantic_json,
        ),
        ("pydantic model_validate", validated_build, read_attributes, pydantic_json),
        ("pydantic model_construct", construct_build, read_attributes, pydantic_json),
    ]
    spec = msgspec_types()
    if spec is not None:
        build = build_with(spec["text"], spec["tool"], spec["message"])
        found.append(("msgspec Struct", build, read_attributes, spec["encode"]))
    found.append(
        (
            "slotted dataclass",
            build_with(DText, DToolUse, DMessage),
            read_attributes,
            lambda message: orjson.dumps(dataclass_json(message)),
        )
    )
    found.append(("dict", dict_build, read_keys, orjson.dumps))
    return found


def per_call(fn: Callable[[], Any], number: int, repeats: int) -> float:
    """Median microseconds of one call of ``fn``, in CPU time of this process (the machine
    may be shared: another process's load then counts less)."""
    runs = timeit.repeat(fn, number=number, repeat=repeats, timer=time.process_time)
    return statistics.median(runs) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20000, help="calls per timing")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print("one assistant message (a text block, a tool call), microseconds per message")
    print(f"{'':<24} {'build':>8} {'read':>8} {'UMF JSON':>9}")
    for name, build, read, write in ways():
        value = build()
        built = per_call(build, args.number, args.repeats)
        reads = per_call(lambda: read(value), args.number, args.repeats)  # noqa: B023
        written = per_call(lambda: write(value), args.number, args.repeats)  # noqa: B023
        print(f"{name:<24} {built:>8.2f} {reads:>8.2f} {written:>9.2f}")


if __name__ == "__main__":
    main()

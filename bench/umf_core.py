"""How fast can a UMF value be? Pydantic, msgspec and slotted dataclasses, side by side.

A conversion builds one UMF value per message and block, reads it back, and the archive
writes it as UMF JSON. This times those three steps for one typical message (an assistant
turn with a text block and a tool call, the block and message ``extra`` filled in) with
each way of holding it:

* ``umf keyword init``: ``umf.Message(role=..., content=[...])`` as the format modules
  build UMF values (msgspec Structs since stop 25), written with ``model_dump_json``;
* ``umf model_validate``: the same message read from a dict, every value checked (what
  an edge does with untrusted UMF);
* ``msgspec Struct``: bare Structs of the same fields, the floor of that library;
* ``pydantic ...``: the same fields as pydantic models (what UMF values were before),
  built by keyword, validated, and with ``model_construct`` (nothing checked);
* ``slotted dataclass``: the same fields as a standard-library dataclass;
* ``dict``: plain dicts, the floor of any Python value.

Serialisation is to the UMF JSON (defaults left out), in each library's fastest way.

    .venv/bin/python bench/umf_core.py [--number 20000] [--repeats 5]
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
from typing import Annotated, Any, ClassVar, Literal

import msgspec
import orjson
import pydantic

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


class MText(msgspec.Struct, tag="text", kw_only=True, omit_defaults=True, tag_field="type"):
    type: ClassVar[str] = "text"  # the tag is written by msgspec, read as a class attribute
    text: str
    citations: list[dict[str, Any]] | None = None
    extra: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)


class MToolUse(msgspec.Struct, tag="tool_use", kw_only=True, omit_defaults=True, tag_field="type"):
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


# What UMF values were until stop 25: pydantic models with ``extra="forbid"``, the block
# tag always written.
class PModel(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")


class PText(PModel):
    type: Literal["text"] = "text"
    text: str
    citations: list[dict[str, Any]] | None = None
    extra: dict[str, dict[str, Any]] = pydantic.Field(default_factory=dict)


class PToolUse(PModel):
    type: Literal["tool_use"] = "tool_use"
    id: str
    name: str
    input: Any = pydantic.Field(default_factory=dict)
    raw_arguments: str | None = None
    extra: dict[str, dict[str, Any]] = pydantic.Field(default_factory=dict)


class PMessage(PModel):
    role: str
    content: list[Annotated[PText | PToolUse, pydantic.Field(discriminator="type")]] = (
        pydantic.Field(default_factory=list)
    )
    name: str | None = None
    tool_call_id: str | None = None
    id: str | None = None
    model: str | None = None
    metadata: dict[str, Any] = pydantic.Field(default_factory=dict)
    extra: dict[str, dict[str, Any]] = pydantic.Field(default_factory=dict)


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
    return PMessage.model_construct(
        role="assistant",
        content=[
            PText.model_construct(
                text="Let me look that up.", extra={"openai-chat": {"$content": "string"}}
            ),
            PToolUse.model_construct(
                id="call_1",
                name="get_weather",
                input={"city": "Paris", "unit": "celsius"},
                raw_arguments=ARGS,
                extra={"openai-chat": {"$type": "absent"}},
            ),
        ],
        extra={"openai-chat": {}},
    )


def validated_with(message: Any) -> Callable[[], Any]:
    return lambda: message.model_validate(
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


def umf_json(message: Any) -> str:
    return message.model_dump_json(exclude_defaults=True)  # type: ignore[no-any-return]


def ways() -> list[tuple[str, Callable[[], Any], Callable[[Any], Any], Callable[[Any], Any]]]:
    """(name, build, read, write) for each way of holding a UMF message."""
    found: list[tuple[str, Callable[[], Any], Callable[[Any], Any], Callable[[Any], Any]]] = [
        (
            "umf keyword init",
            build_with(umf.TextBlock, umf.ToolUseBlock, umf.Message),
            read_attributes,
            umf_json,
        ),
        ("umf model_validate", validated_with(umf.Message), read_attributes, umf_json),
        (
            "msgspec Struct",
            build_with(MText, MToolUse, MMessage),
            read_attributes,
            msgspec.json.encode,
        ),
        (
            "pydantic keyword init",
            build_with(PText, PToolUse, PMessage),
            read_attributes,
            pydantic_json,
        ),
        ("pydantic model_validate", validated_with(PMessage), read_attributes, pydantic_json),
        ("pydantic model_construct", construct_build, read_attributes, pydantic_json),
    ]
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

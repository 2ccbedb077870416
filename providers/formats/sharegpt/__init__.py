"""``sharegpt``: ShareGPT datasets (``{"conversations": [{"from", "value"}]}`` entries), with
LLaMA-Factory's extensions: ``function_call`` / ``observation`` turns, top-level
``system`` and ``tools`` (a JSON string), ``images`` / ``audios`` with ``<image>`` /
``<audio>`` placeholders.

A file is a list of entries (or JSON Lines of them); ``parse`` gives one conversation per
entry (its ``id``, when it has one, is the key) and also takes a single entry. How an entry
is read is in ``_parse``. A conversation read from this format renders back as exactly its
entry. Any other becomes an entry LLaMA-Factory accepts, with these warnings:

==============================================  ==============================================
system/developer messages after the start,      merged into the one ``system`` field,
more than one, or developer ones                ``system-message-transformed``
turns of the same side in a row (users, a user  merged into one turn, ``role-merged`` (several
after a tool result, several tool results)      results: a JSON list of them)
assistant text beside tool calls (in the same   ``content-dropped`` (``reasoning-dropped`` for
message or the one before)                      reasoning): a call turn holds only calls
tool-call ids                                   ``id-rewritten`` to None (results follow their
                                                call in order)
tool definitions                                a JSON string, ``content-type-unsupported``
                                                (info)
images/audio in user turns                      paths in ``images``/``audios`` (base64 as a
                                                data URI), ``content-type-unsupported``
media elsewhere, documents that are not text,   ``content-dropped``
tool calls outside assistant messages
plain-text documents, refusals                  text, ``content-type-unsupported``
reasoning                                       ``<think>`` text, ``content-type-unsupported``
                                                (``signature-stripped`` when signed,
                                                ``reasoning-dropped`` when redacted)
tool result error flag                          "Error: " text, ``capability-unsupported``
citations                                       ``content-dropped``
parameters, tool_choice                         ``parameter-unsupported``
other branches of a tree                        ``content-dropped`` per message
other formats' fields                           ``field-unknown`` (info)
a message's ``name`` (not a tool's)             ``content-dropped`` (info)
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons, usage and metadata                     messages
==============================================  ==============================================

A conversation that opens with an assistant turn is written as it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

from providers.formats import register
from providers.formats._archive import check_depth, checked, entry_error, read_entries
from providers.formats._common import hint, report_message_metadata, report_message_name
from providers.formats.base import Capabilities, Drift, Format, FormatError, ParseResult, Rendered
from providers.umf import JSON, Conversation

from ._parse import FORMAT_ID, ROLE_OF, own_fields, parse_entry, require_entries
from ._render import (
    Context,
    Turn,
    finish,
    message_turns,
    report_foreign,
    thread,
    tools_field,
)

__all__ = ["FORMAT", "FORMAT_ID", "detect", "iter_parse", "parse", "render", "render_many"]

_NO_MESSAGE_METADATA = (
    "a ShareGPT turn has no ids, timestamps, models, finish reasons, usage or metadata; left out"
)
_SIDE = {"human": "user", "observation": "user", "gpt": "assistant", "function_call": "assistant"}


# --------------------------------------------------------------------------- parse


def parse(payload: JSON) -> list[ParseResult]:
    """One conversation per entry of a list (or the one entry given on its own)."""
    single = isinstance(payload, dict)
    entries = require_entries(payload)
    results = []
    for index, entry in enumerate(entries):
        results.append(parse_one(entry, "" if single else f"[{index}]"))
        if not single:
            results[-1].conversation.extra[FORMAT_ID]["$file"] = "list"
    return results


def parse_one(entry: JSON, path: str) -> ParseResult:
    """The conversation of one entry; ``path`` names it in errors."""
    check_depth(entry, path or "payload")
    drift = Drift(FORMAT_ID)
    conversation = checked(lambda: parse_entry(entry, path, drift), path)
    key = entry.get("id") if isinstance(entry, dict) else None
    return ParseResult(conversation, drift.warnings, key=None if key is None else str(key))


# --------------------------------------------------------------------------- render


def render(conversation: Conversation) -> Rendered:
    """A file of one: the entry alone when it was read alone, else a list holding it."""
    rendered = render_entry(conversation)
    if hint(conversation.extra, FORMAT_ID, "file") == "list" or not _is_own(conversation):
        rendered.payload = [rendered.payload]
    return rendered


def render_many(conversations: Sequence[Conversation]) -> Rendered:
    """A list of entries, one per conversation (a file of one is :func:`render`)."""
    if len(conversations) == 1:
        return render(conversations[0])
    entries, warnings = [], []
    for conversation in conversations:
        rendered = render_entry(conversation)
        entries.append(rendered.payload)
        warnings.extend(rendered.warnings)
    return Rendered(entries, warnings)


def _is_own(conversation: Conversation) -> bool:
    return bool(hint(conversation.extra, FORMAT_ID, "shape") == "entry")


def render_entry(conversation: Conversation) -> Rendered:
    """One entry for the conversation, and the warnings for what it could not carry."""
    ctx = Context(Drift(FORMAT_ID), faithful=_is_own(conversation))
    if not ctx.faithful:
        _report_request_fields(conversation, ctx)
    turns: list[Turn] = []
    written = thread(conversation, ctx.drift)
    if not ctx.faithful:
        report_message_metadata(written, ctx.drift, _NO_MESSAGE_METADATA)
    for index, message in written:
        if not ctx.faithful:
            report_foreign(message.extra, f"messages[{index}]", ctx.drift)
            report_message_name(message, f"messages[{index}]", ctx.drift, "a ShareGPT turn")
        turns.extend(message_turns(message, index, ctx))
    if not ctx.faithful:
        turns = _alternate(turns, ctx)
    entry: dict[str, Any] = {}
    if ctx.system:
        entry["system"] = "\n\n".join(ctx.system)
    entry["conversations"] = [finish(turn) for turn in turns]
    # A tools field read from this format (its hint) comes back even with no tool in it.
    if conversation.tools or hint(conversation.extra, FORMAT_ID, "tools") is not None:
        entry["tools"] = tools_field(conversation, ctx)
    _media_fields(conversation, entry, ctx)
    for key, value in own_fields(conversation.extra).items():
        entry.setdefault(key, value)
    return Rendered(entry, ctx.drift.warnings)


def _media_fields(conversation: Conversation, entry: dict[str, Any], ctx: Context) -> None:
    for key, paths in ctx.media.items():
        unplaced = hint(conversation.extra, FORMAT_ID, f"unplaced_{key}") or []
        if paths or unplaced or hint(conversation.extra, FORMAT_ID, f"empty_{key}"):
            entry[key] = paths + list(unplaced)


def _report_request_fields(conversation: Conversation, ctx: Context) -> None:
    report_foreign(conversation.extra, "", ctx.drift)
    for key, value in conversation.parameters.model_dump(exclude_defaults=True).items():
        ctx.drift.add(
            "parameter-unsupported",
            "a ShareGPT entry has no request parameters",
            field=f"parameters.{key}",
            original=value,
        )
    if conversation.tool_choice is not None:
        ctx.drift.add(
            "parameter-unsupported",
            "a ShareGPT entry has no tool_choice",
            field="tool_choice",
            original=conversation.tool_choice.model_dump(
                mode="json", exclude_defaults=True, exclude={"extra"}
            ),
        )


def _alternate(turns: list[Turn], ctx: Context) -> list[Turn]:
    """Merge turns of the same side in a row (LLaMA-Factory wants them alternating)."""
    out: list[Turn] = []
    for turn in turns:
        if out and _SIDE[out[-1].kind] == _SIDE[turn.kind]:
            _merge(out[-1], turn, ctx)
        else:
            out.append(turn)
    return out


def _merge(into: Turn, turn: Turn, ctx: Context) -> None:
    path = f"messages[{turn.index}]"
    if (
        into.kind == turn.kind == "observation"
        and into.value is None
        and not (into.pieces or turn.pieces)
    ):
        into.results.extend(turn.results)
    elif "function_call" in (into.kind, turn.kind):
        for dropped in (t for t in (into, turn) if t.kind != "function_call" and t.pieces):
            ctx.drift.add(
                "content-dropped",
                "a function_call turn holds only calls; the text beside them is dropped",
                field=f"messages[{dropped.index}]",
                original=dropped.text(),
            )
        into.calls.extend(turn.calls)
        into.kind = into.name = "function_call"
        into.pieces, into.value = [], None
    else:
        into.value = "\n\n".join(t for t in (finish(into)["value"], finish(turn)["value"]) if t)
    ctx.drift.add(
        "role-merged",
        "ShareGPT turns alternate between the user side and the assistant side",
        field=path,
        original=turn.name,
        transformed=into.name,
    )


# --------------------------------------------------------------------------- files


def iter_parse(binary: BinaryIO) -> Iterator[ParseResult | FormatError]:
    """The entries of a JSON array or JSON Lines file, one at a time; an entry that
    cannot be read is a :class:`FormatError` naming its position."""
    for entry in read_entries(binary):
        if entry.error is not None:
            yield entry.error
            continue
        try:
            result = parse_one(entry.value, entry.position)
        except FormatError as error:
            yield entry_error(error, entry.value, "id")
            continue
        result.conversation.extra[FORMAT_ID]["$file"] = "list"
        yield result


# --------------------------------------------------------------------------- detect


def detect(payload: JSON) -> int:
    """2 when the payload is ShareGPT entries (``conversations`` of ``from``/``value``
    turns with known roles), else 0."""
    entries = payload if isinstance(payload, list) else [payload]
    if not entries:
        return 0
    for entry in entries[:20]:
        turns = entry.get("conversations") if isinstance(entry, dict) else None
        if not isinstance(turns, list) or not all(_is_turn(turn) for turn in turns[:50]):
            return 0
    return 2


def _is_turn(turn: JSON) -> bool:
    return (
        isinstance(turn, dict)
        and turn.get("from") in ROLE_OF
        and isinstance(turn.get("value"), str)
    )


FORMAT = register(
    Format(
        id=FORMAT_ID,
        label="ShareGPT",
        capabilities=Capabilities(
            roles=frozenset({"system", "user", "assistant", "tool"}),
            blocks=frozenset({"text", "image", "audio", "tool_use", "tool_result"}),
            tools=True,
            tool_choice=False,
            parameters=frozenset(),
            reasoning_signatures=False,
            usage=False,
            multi_conversation=True,
        ),
        parse=parse,
        render=render,
        detect=detect,
        render_many=render_many,
        iter_parse=iter_parse,
    )
)

"""Writing a UMF conversation as one ShareGPT entry: its turns (``_render_turns``), fitted to
LLaMA-Factory's rules when it comes from another format (``_rules``), and the entry's
``system``, ``tools``, ``images`` and ``audios`` fields."""

from __future__ import annotations

from typing import Any

from providers.formats._archive.foreign import report_request
from providers.formats._archive.values import tool_object
from providers.formats._kit.drift import report_message_metadata
from providers.formats._kit.thread import one_thread
from providers.formats.base import Drift, Rendered
from providers.umf import Conversation, Tool

from ._constants import FORMAT_ID, NS, WORDS
from ._render_turns import Context, Turn, dumps, finish, message_turns, same_json
from ._rules import alternate

_NO_MESSAGE_METADATA = (
    "a ShareGPT turn has no ids, timestamps, models, finish reasons, usage or metadata; left out"
)


def render_entry(conversation: Conversation) -> Rendered:
    """One entry for the conversation, and the warnings for what it could not carry."""
    ctx = Context(Drift(FORMAT_ID), faithful=NS.hint(conversation.extra, "shape") == "entry")
    if not ctx.faithful:
        _report_request(conversation, ctx)
    turns: list[Turn] = []
    written = one_thread(conversation, ctx.drift, "a ShareGPT entry holds one thread")
    if not ctx.faithful:
        report_message_metadata(written, ctx.drift, _NO_MESSAGE_METADATA)
    for index, message in written:
        if not ctx.faithful:
            WORDS.report_message(message, f"messages[{index}]", ctx.drift)
        turns.extend(message_turns(message, index, ctx))
    if not ctx.faithful:
        turns = alternate(turns, ctx)
    entry: dict[str, Any] = {}
    if ctx.system:
        entry["system"] = "\n\n".join(ctx.system)
    entry["conversations"] = [finish(turn) for turn in turns]
    # A tools field read from this format (its hint) comes back even with no tool in it.
    if conversation.tools or NS.hint(conversation.extra, "tools") is not None:
        entry["tools"] = tools_field(conversation, ctx)
    _media_fields(conversation, entry, ctx)
    for key, value in NS.fields(conversation.extra).items():
        entry.setdefault(key, value)
    return Rendered(entry, ctx.drift.warnings)


def _media_fields(conversation: Conversation, entry: dict[str, Any], ctx: Context) -> None:
    for key, paths in ctx.media.items():
        unplaced = NS.hint(conversation.extra, f"unplaced_{key}") or []
        if paths or unplaced or NS.hint(conversation.extra, f"empty_{key}"):
            entry[key] = paths + list(unplaced)


def _report_request(conversation: Conversation, ctx: Context) -> None:
    why = "a ShareGPT entry has no request parameters"
    report_request(conversation, ctx.drift, WORDS, parameters_message=why, tools=False)


def tools_field(conversation: Conversation, ctx: Context) -> Any:
    """The ``tools`` field as it was read, or a JSON string for other formats' tools."""
    value = tools_value(conversation.tools)
    kept = NS.hint(conversation.extra, "tools")
    if kept == "list":
        return value
    if isinstance(kept, str) and same_json(kept, value):
        return kept
    if not ctx.faithful:
        ctx.drift.add(
            "content-type-unsupported",
            "ShareGPT holds tool definitions as a JSON string",
            field="tools",
            original=len(conversation.tools),
            transformed="string",
            severity="info",
        )
        for index, tool in enumerate(conversation.tools):
            WORDS.foreign(tool.extra, f"tools[{index}]", ctx.drift)
    return dumps(value)


def tools_value(tools: list[Tool]) -> list[dict[str, Any]]:
    """The tool definitions as this format's ``tools`` list holds them."""
    return [tool_object(tool, NS) for tool in tools]

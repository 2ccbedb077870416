"""The conventions' structural rules for a span: one thread, split into system instructions,
input messages and output messages (the answer), every output message with a finish reason
in the conventions' names."""

from __future__ import annotations

from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.thread import one_thread
from providers.umf import Conversation, Message, ToolUseBlock

from ._constants import NS, WIRE_FINISH


def split_thread(conversation: Conversation, ctx: Context) -> dict[str, list[tuple[int, Message]]]:
    """The thread's messages as the span holds them: the system instructions, the input
    messages and the output ones (read so, or for another format's conversation, a final
    answer: an assistant message with a finish reason or usage)."""
    groups: dict[str, list[tuple[int, Message]]] = {"system": [], "input": [], "output": []}
    thread = one_thread(conversation, ctx.drift, "a span holds one thread")
    for index, message in thread:
        kind = NS.hint(message.extra, "field")
        if ctx.faithful and kind == "system":
            groups["system"].append((index, message))
        elif ctx.faithful and kind == "output":
            groups["output"].append((index, message))
        else:
            groups["input"].append((index, message))
    last = groups["input"][-1][1] if groups["input"] else None
    if not ctx.faithful and last is not None and _is_answer(last):
        groups["output"].append(groups["input"].pop())
    return groups


def _is_answer(message: Message) -> bool:
    # A response's message: what a span's output holds.
    finished = message.finish_reason or message.provider_finish_reason
    return message.role == "assistant" and bool(finished or message.usage is not None)


def finish_reason(message: Message, path: str, ctx: Context) -> str:
    """An output message's finish_reason, in the conventions' names: another provider's own
    value (Anthropic's ``end_turn``) is written as the reason it means (``stop``), and said;
    one that means nothing UMF knows is written as it is."""
    if message.finish_reason is None:
        if message.provider_finish_reason is not None:
            return message.provider_finish_reason
        return _synthesized_finish_reason(message, path, ctx)
    reason = WIRE_FINISH.get(message.finish_reason, message.finish_reason)
    raw = message.provider_finish_reason
    if raw is not None and raw != reason:
        ctx.drift.add(
            "parameter-normalized",
            f"GenAI finish reasons are not the provider's own; {raw!r} is written as {reason!r}",
            field=f"{path}.finish_reason",
            original=raw,
            transformed=reason,
            severity="info",
        )
    return reason


def _synthesized_finish_reason(message: Message, path: str, ctx: Context) -> str:
    # An answer known by its usage alone still goes out as the span's output (its usage and
    # model are the response's), and the conventions require a finish_reason on every
    # output message: the one its content shows, tool_call when it makes calls, else stop.
    calls = any(isinstance(block, ToolUseBlock) for block in message.content)
    reason = "tool_call" if calls else "stop"
    ctx.drift.add(
        "parameter-defaulted",
        "GenAI output messages require a finish_reason and none was recorded; "
        f"{reason!r} was synthesized from the content",
        field=f"{path}.finish_reason",
        transformed=reason,
    )
    return reason

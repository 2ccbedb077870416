"""What openai-chat and openai-responses share when they put rendered messages in the order
the API accepts: every call answered right after it, a repeated call id made unique, a
result that answers nothing sent as a user message, and media a role could not hold carried
to a user message after its group. Each format keeps its own entries and pairing walk; the
warnings take its own words (``tool call`` / ``call``, ``result`` / ``output``). The family's
thread of turns (:mod:`.turns`, Cohere and Mistral) says its pairing through the same warnings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from providers.formats._kit.context import RenderContext
from providers.formats._kit.ids import report_rewritten, salted_id
from providers.formats.base import Drift
from providers.umf import Block, Message, ToolResultBlock


class Carrying(Protocol):
    """A rendered entry: the user content parts that must follow its group."""

    carry: list[dict[str, Any]]


Entry = TypeVar("Entry", bound=Carrying)
Ctx = TypeVar("Ctx", bound=RenderContext)


class Assembler(Generic[Entry, Ctx]):
    """One walk over the rendered entries: what is written out so far, the entries already
    placed, and the call ids already used in this request."""

    def __init__(self, entries: list[Entry], ctx: Ctx) -> None:
        self.entries, self.ctx = entries, ctx
        self.out: list[dict[str, Any]] = []
        self.used: set[int] = set()
        self.call_ids: set[str] = set()

    def fresh_id(
        self, original: str, call_path: str, make_id: Callable[[str], str], noun: str
    ) -> str:
        """A call id not used yet in this request, made from ``original`` by ``make_id``
        (it takes a hex digest), with an ``id-rewritten`` note on the ``noun`` id."""
        fresh = salted_id(original, make_id, self.call_ids)
        report_rewritten(
            self.ctx.drift,
            f"{noun} id already used in this request; made unique",
            f"{call_path}.id",
            original,
            fresh,
        )
        return fresh


# The content of the result put in for a tool call that nothing answers.
MISSING_RESULT_TEXT = "Error: no result was recorded for this tool call."


def warn_loose_tool(drift: Drift, path: str) -> None:
    """A tool message without a tool call id answers nothing: it goes as a user message."""
    drift.add(
        "content-type-unsupported",
        "tool message without a tool call id; sent as a user message",
        field=path,
        original="tool",
        transformed="user",
    )


def warn_reordered(drift: Drift, path: str, message_index: int, new_index: int, why: str) -> None:
    """A result moved up behind its call (``why`` says so in the format's words); original
    value the UMF message index, transformed value the index in the rendered list."""
    drift.add(
        "message-reordered",
        why,
        field=path,
        original=message_index,
        transformed=new_index,
        severity="info",
    )


def warn_placeholder(drift: Drift, call_path: str, noun: str) -> None:
    """A call without a recorded result gets a placeholder error ``noun``."""
    drift.add(
        "id-synthesized",
        f"tool call has no recorded result; a placeholder error {noun} was added",
        field=call_path,
        transformed=MISSING_RESULT_TEXT,
    )


def warn_orphan(drift: Drift, path: str, answers: str) -> None:
    """A tool result that answers no call (``answers`` says which) goes as a user message."""
    drift.add(
        "content-type-unsupported",
        f"tool result answers {answers}; sent as a user message",
        field=path,
        original="tool",
        transformed="user",
    )


def loose_tool_message(
    message: Message,
    path: str,
    ctx: RenderContext,
    as_result: Callable[[ToolResultBlock], list[Entry]],
    as_user: Callable[[Message], list[Entry]],
) -> list[Entry]:
    """A tool message holding its result as plain blocks (UMF's InternalMessage shape): the
    result of its ``tool_call_id``, else a user message with a warning."""
    if message.tool_call_id is not None:
        return as_result(
            ToolResultBlock(tool_use_id=message.tool_call_id, content=list(message.content))
        )
    warn_loose_tool(ctx.drift, path)
    return as_user(message.model_copy(update={"role": "user"}))


def carried(
    part: dict[str, Any], block: Block, path: str, role: str, ctx: RenderContext
) -> dict[str, Any]:
    """Warn that ``block`` moves to a user message after its turn; ``part`` is what moves."""
    ctx.drift.add(
        "message-reordered",
        f"a {role} message cannot hold {block.type} content; moved to a user message after it",
        field=path,
        original=role,
        transformed="user",
    )
    return part


def flush_carry(group: list[Entry], out: list[dict[str, Any]]) -> None:
    """The parts ``group`` could not hold, as one user message after it."""
    carried_parts = [part for entry in group for part in entry.carry]
    if carried_parts:
        out.append({"role": "user", "content": carried_parts})

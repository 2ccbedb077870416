"""UMF messages -> Gemini turns (one Content per UMF message) and the system instruction.

Turns keep the UMF path of every part so that the structural rules (``_rules``), given
the turns a batch at a time as they are built, can name what they changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from providers.formats._content_blocks.drafts import (
    NOTHING,
    report_system_moved,
    text_only,
    wrapped_tool_result,
)
from providers.formats._kit.drift import (
    report_call_as_text,
    report_result_as_text,
    warn_message_fields,
)
from providers.formats._kit.extra import hint, own_extra
from providers.formats._kit.paths import CONTENT_AT
from providers.formats.base import Drift
from providers.formats.gemini._constants import FORMAT_ID
from providers.formats.gemini._parse_results import compact_json
from providers.formats.gemini._render_parts import Context, Part, merge_fields, render_block
from providers.umf import Message

_ROLES = {"user": "user", "tool": "user", "assistant": "model"}
_MADE = len(CONTENT_AT)

# Turns built before the rules take them. Rule by rule over the whole conversation, each
# pass read 10,000 turns back from memory; turn by turn, the code of every rule ran between
# two turns and the interpreter's caches kept none of it (1,000 messages: render 9% slower).
# A batch stays in the processor's caches from pass to pass: rendering 10,000 messages took
# 4.8-5.4 us per message before, 4.0-4.3 after (64 or 1,024 a batch: 4.3-4.4), and 1,000
# as before (the render alone, best of 9 runs, timed 4 times on the busy machine).
BATCH = 256


# One per message written: a msgspec Struct, as the family's drafts (see _content_blocks.drafts).
class Turn(msgspec.Struct, gc=False):
    """One Content in the making."""

    role: str
    parts: list[Part]
    path: str
    source_role: str
    # Empty for a turn converted from another format: shared, not a new dict each.
    extra: Mapping[str, Any] = NOTHING
    hints: Mapping[str, Any] = NOTHING

    def payload(self) -> dict[str, Any]:
        """The Content as sent (``role`` and ``parts`` left out where they were absent)."""
        hints = self.hints
        if not hints:  # every turn converted from another format
            # A loop, not a list comprehension: CPython 3.11 makes a function of each one
            # and calls it, 1k instructions more for every turn (0.9% of the gemini bench).
            parts = []
            for part in self.parts:
                parts.append(part.body)
            body = {"role": self.role, "parts": parts}
        else:
            body = {}
            if hints.get("$role") != "absent":
                body["role"] = self.role
            if hints.get("$parts") != "absent":
                body["parts"] = [part.body for part in self.parts]
        if self.extra:
            merge_fields(body, self.extra)
        return body


def build_turns(
    messages: list[tuple[int, Message]], ctx: Context, take: Callable[[list[Turn]], object]
) -> tuple[list[Message], list[Part]]:
    """The turns of the thread, given to ``take`` :data:`BATCH` at a time; returns the
    system messages taken out of it, and their parts. System and developer messages all go
    to ``systemInstruction`` (Gemini has no system turn)."""
    turns: list[Turn] = []
    leading = True  # no turn built yet
    system: list[Message] = []
    system_parts: list[Part] = []
    converting = not ctx.faithful
    for index, message in messages:
        path = f"messages[{index}]"
        warn_message_fields(message, path, ctx, "Gemini", "Gemini contents")  # see its docstring
        if message.role in ("system", "developer"):
            system.append(message)
            system_parts += _system_parts(message, path, leading=leading, ctx=ctx)
            continue
        turn = _turn(message, path, ctx)
        if converting:
            _fix_misplaced(turn, ctx)
        turns.append(turn)
        leading = False
        if len(turns) == BATCH:
            take(turns)
            turns = []
    take(turns)
    return system, system_parts


def _turn(message: Message, path: str, ctx: Context) -> Turn:
    wrapped = wrapped_tool_result(message, path, ctx.drift) if message.role == "tool" else None
    if wrapped is None:
        parts = _render_all(message, path, ctx)
    else:
        part = render_block(wrapped, path, ctx)
        parts = [] if part is None else [part]
    own = message.extra.get(FORMAT_ID)
    if not own:  # the common message: nothing of this format's to put back
        return Turn(_ROLES[message.role], parts, path, message.role)
    extra = {k: v for k, v in own.items() if not k.startswith("$")}
    hints = {k: v for k, v in own.items() if k.startswith("$")} if ctx.faithful else {}
    return Turn(_ROLES[message.role], parts, path, message.role, extra, hints)


def _render_all(message: Message, path: str, ctx: Context) -> list[Part]:
    parts: list[Part] = []
    for index, block in enumerate(message.content):
        block_path = (  # see CONTENT_AT
            path + CONTENT_AT[index] if index < _MADE else f"{path}.content[{index}]"
        )
        part = render_block(block, block_path, ctx)
        if part is None:
            continue
        if ctx.faithful and parts and hint(block.extra, FORMAT_ID, "joined"):
            parts[-1].body.update(part.body)  # a second data field of the part it came from
        else:
            parts.append(part)
    return parts


def _system_parts(message: Message, path: str, *, leading: bool, ctx: Context) -> list[Part]:
    if not ctx.faithful:
        report_system_moved(
            message,
            path,
            leading,
            ctx.drift,
            target="Gemini",
            prompt="systemInstruction",
            transformed="systemInstruction",
        )
    parts = _render_all(message, path, ctx)
    if ctx.faithful:
        return parts
    return text_only(
        parts,
        ctx.drift,
        is_text=lambda part: set(part.body) == {"text"},
        kind=lambda part: next(iter(part.body)),
        note="Gemini's systemInstruction holds text only; left out",
    )


def system_instruction(messages: list[Message], parts: list[Part], ctx: Context) -> Any:
    """The ``systemInstruction`` Content, or None to leave it out."""
    if not messages or (not parts and not ctx.faithful):
        return None
    first = messages[0]
    body: dict[str, Any] = {}
    role = hint(first.extra, FORMAT_ID, "role")
    if ctx.faithful and role is not None:
        body["role"] = role
    if not (ctx.faithful and hint(first.extra, FORMAT_ID, "parts") == "absent"):
        body["parts"] = [part.body for part in parts]
    merge_fields(body, own_extra(first.extra, FORMAT_ID))
    return body


def _fix_misplaced(turn: Turn, ctx: Context) -> None:
    """Calls only in model turns, results only in user turns; the others become text."""
    # The common turn has none: looked for with one test per part, and left as it is.
    user = turn.role == "user"
    if not user and turn.role != "model":
        return
    for part in turn.parts:
        if (part.call_id if user else part.answers) is not None:
            break
    else:
        return
    fixed: list[Part] = []
    for part in turn.parts:
        if user and part.call_id is not None:
            fixed.append(_call_as_text(part, ctx))
        elif not user and part.answers is not None:
            fixed.extend(result_as_text(part, ctx.drift))
        else:
            fixed.append(part)
    turn.parts = fixed


def _call_as_text(part: Part, ctx: Context) -> Part:
    call = part.body["functionCall"]
    report_call_as_text(
        part.path, ctx.drift, target="Gemini", what="function calls", speaker="the model"
    )
    text = f"[function call {part.call_id}] {call['name']}({compact_json(call.get('args', {}))})"
    return Part({"text": text}, part.path)


def result_as_text(part: Part, drift: Drift) -> list[Part]:
    """A result that answers no call of the turn before, as text (then its media)."""
    response = part.body["functionResponse"]
    report_result_as_text(part.path, drift)
    text = f"[function result {part.answers}] {response['name']}: "
    text += compact_json(response["response"])
    media = [Part(media_body, part.path) for media_body in response.get("parts", [])]
    return [Part({"text": text}, part.path), *media]

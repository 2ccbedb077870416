"""The structural rules of Converse, applied to drafts converted from another format.

In order: tool ids fit ``[a-zA-Z0-9_.:-]{1,64}`` (unique per call); no blank text blocks, no
empty messages; one message per turn (same-role runs merged: "A conversation must alternate
between user and assistant roles"); the first turn is the user's; every ``toolUse`` is
answered by a ``toolResult`` at the start of the very next user turn, and every result
answers a call of the turn before it; a user turn with a document also holds text.
"""

from __future__ import annotations

from hashlib import sha256

from providers.formats._common import ToolIdMap
from providers.formats.bedrock_converse._constants import (
    BRIDGE_USER_TEXT,
    DOCUMENT_PROMPT_TEXT,
    MISSING_RESULT_TEXT,
    TOOL_ID_PATTERN,
)
from providers.formats.bedrock_converse._context import Context, Part, drop_blank_text, text_part
from providers.formats.bedrock_converse._drafts import Draft, result_as_text


def normalize(drafts: list[Draft], ctx: Context) -> list[Draft]:
    """Drafts rearranged into a conversation Converse accepts; every change is a warning."""
    _rewrite_ids(drafts, ctx)
    drafts = _drop_empty(drafts, ctx)
    drafts = _merge_runs(drafts, ctx)
    if not drafts or drafts[0].role != "user":
        drafts.insert(0, _bridge(drafts, ctx))
    drafts = _pair_tool_results(drafts, ctx)
    for draft in drafts:
        _document_needs_text(draft, ctx)
    return drafts


def _make_id(digest: str) -> str:
    return f"tooluse_{digest[:24]}"


def _rewrite_ids(drafts: list[Draft], ctx: Context) -> None:
    """Tool ids the API accepts, unique per call. A reused id (some providers number calls
    per turn) gets a new one, and results answer the latest call that had their id."""
    ids = ToolIdMap(
        ctx.drift, valid=lambda value: TOOL_ID_PATTERN.fullmatch(value) is not None, make=_make_id
    )
    used: set[str] = set()
    latest: dict[str, str] = {}
    for part in (part for draft in drafts for part in draft.parts):
        if part.member == "toolUse":
            original = part.value["toolUseId"]
            new = ids(original, f"{part.path}.id")
            if new in used:
                new = _unique_id(original, used, f"{part.path}.id", ctx)
            used.add(new)
            latest[original] = part.value["toolUseId"] = new
        elif part.member == "toolResult":
            original = part.value["toolUseId"]
            part.value["toolUseId"] = latest.get(original) or ids(
                original, f"{part.path}.tool_use_id"
            )


def _unique_id(original: str, used: set[str], field: str, ctx: Context) -> str:
    salt = 1
    while (new := _make_id(sha256(f"{original}#{salt}".encode()).hexdigest())) in used:
        salt += 1
    ctx.drift.add(
        "id-rewritten",
        "tool call id already used by an earlier call; rewritten to stay unique",
        field=field,
        original=original,
        transformed=new,
        severity="info",
    )
    return new


def _drop_empty(drafts: list[Draft], ctx: Context) -> list[Draft]:
    kept = []
    for draft in drafts:
        draft.parts = drop_blank_text(draft.parts, ctx)
        if draft.parts:
            kept.append(draft)
        elif not draft.synthetic:
            ctx.drift.add(
                "content-dropped",
                "a message with no content Bedrock can take was left out",
                field=draft.path,
                original=draft.source_role,
                severity="info",
            )
    return kept


def _merge_runs(drafts: list[Draft], ctx: Context) -> list[Draft]:
    """Consecutive same-role drafts as one (tool messages join the user turn)."""
    merged: list[Draft] = []
    for draft in drafts:
        previous = merged[-1] if merged else None
        if previous is None or previous.role != draft.role:
            merged.append(draft)
            continue
        if not (previous.synthetic or draft.synthetic):
            ctx.drift.add(
                "role-merged",
                "Bedrock conversations alternate user and assistant; merged with the message "
                "before",
                field=draft.path,
                original=draft.source_role,
                transformed=draft.role,
                details={"merged_into": previous.path},
            )
        previous.parts.extend(draft.parts)
        previous.extra = {**previous.extra, **draft.extra}
        previous.synthetic = previous.synthetic and draft.synthetic
    return merged


def _bridge(drafts: list[Draft], ctx: Context) -> Draft:
    """The user turn put first when the conversation would start with the assistant."""
    path = drafts[0].path if drafts else "messages"
    ctx.drift.add(
        "message-reordered",
        "Bedrock conversations start with the user; a bridge user turn was inserted",
        field=path,
        transformed={"role": "user", "content": [{"text": BRIDGE_USER_TEXT}]},
    )
    return Draft("user", [text_part(BRIDGE_USER_TEXT, path)], path, "user", synthetic=True)


def _pair_tool_results(drafts: list[Draft], ctx: Context) -> list[Draft]:
    paired: list[Draft] = []
    for draft in drafts:
        if draft.role == "user":
            calls = _calls(paired[-1]) if paired and paired[-1].role == "assistant" else {}
            _answer_calls(draft, calls, ctx)
        paired.append(draft)
    calls = _calls(paired[-1])
    if paired[-1].role == "assistant" and calls:
        closing = Draft("user", [], paired[-1].path, "user", synthetic=True)
        _answer_calls(closing, calls, ctx)
        paired.append(closing)
    return paired


def _calls(draft: Draft) -> dict[str, str]:
    """The toolUse ids of a turn, with their UMF paths, in order."""
    return {p.value["toolUseId"]: p.path for p in draft.parts if p.member == "toolUse"}


def _answer_calls(draft: Draft, calls: dict[str, str], ctx: Context) -> None:
    """Results first, one per call of the previous turn; a result that answers nothing
    there becomes text, a call that nothing answers gets an error result."""
    results: list[Part] = []
    others: list[Part] = []
    for part in draft.parts:
        answers = part.value.get("toolUseId") if part.member == "toolResult" else None
        if answers is None:
            others.append(part)
        elif answers in calls and all(r.value["toolUseId"] != answers for r in results):
            if any(not other.moved for other in others) and not draft.synthetic:
                _warn_reordered(part, ctx)
            results.append(part)
        else:
            others.extend(result_as_text(part, ctx))
    answered = {part.value["toolUseId"] for part in results}
    for call_id, call_path in calls.items():
        if call_id not in answered:
            results.append(_missing_result(call_id, call_path, ctx))
    draft.parts = results + others


def _warn_reordered(part: Part, ctx: Context) -> None:
    ctx.drift.add(
        "message-reordered",
        "tool results come first in the user turn; moved before the other content",
        field=part.path,
        original="after other content",
        transformed="first",
    )


def _missing_result(call_id: str, call_path: str, ctx: Context) -> Part:
    body = {
        "toolResult": {
            "toolUseId": call_id,
            "content": [{"text": MISSING_RESULT_TEXT}],
            "status": "error",
        }
    }
    ctx.drift.add(
        "message-reordered",
        "Bedrock needs a result for every tool call; an error result was inserted",
        field=call_path,
        transformed=body,
    )
    return Part(body, call_path)


def _document_needs_text(draft: Draft, ctx: Context) -> None:
    """Bedrock refuses a document block in a message without a text block."""
    members = {part.member for part in draft.parts}
    if "document" not in members or "text" in members:
        return
    ctx.drift.add(
        "message-reordered",
        "Bedrock needs a text block beside a document; one was added",
        field=next(part.path for part in draft.parts if part.member == "document"),
        transformed={"text": DOCUMENT_PROMPT_TEXT},
    )
    draft.parts.append(text_part(DOCUMENT_PROMPT_TEXT, draft.path))

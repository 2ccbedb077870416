"""Drift reporters every format shares, worded with the target's label: other formats'
fields that do not travel, message facts and fields the target has no place for, what a
bare message list cannot hold, and a tool call sent as text where the target refuses it."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.extra import foreign_fields, own_extra
from providers.formats._kit.paths import at, item
from providers.formats._kit.wire import media_summary
from providers.formats.base import Drift
from providers.umf import (
    Block,
    Conversation,
    Extra,
    MediaSource,
    Message,
    Parameters,
    Severity,
    TextBlock,
    ThinkingBlock,
    Tool,
    ToolChoice,
    ToolResultBlock,
)


def report_foreign_fields(
    extra: Extra,
    path: str,
    drift: Drift,
    format_id: str,
    label: str,
    *,
    tail: str = "",
    with_empty: bool = False,
) -> None:
    """One ``field-unknown`` (info) warning for each other format's fields on a value
    (``path`` is the value's UMF path): they do not travel into ``format_id``'s output.
    Fields that hold nothing (null, empty) are not worth one (:func:`foreign_fields`),
    unless ``with_empty`` (formats that report every field as it was kept). ``tail`` ends
    the message (" and are not sent")."""
    if not extra or (len(extra) == 1 and format_id in extra):
        return  # nothing of another format: the common case, checked once per value
    if with_empty:
        found = [(ns, own_extra(extra, ns)) for ns in sorted(extra) if ns != format_id]
    else:
        found = foreign_fields(extra, format_id)
    for namespace, fields in found:
        if fields:
            drift.add(
                "field-unknown",
                f"{namespace} fields have no {label} equivalent{tail}",
                field=f"{path}.extra.{namespace}" if path else f"extra.{namespace}",
                original=fields,
                severity="info",
            )


def report_foreign_extra(extra: Extra, path: str, ctx: RenderContext) -> None:
    """One ``field-unknown`` note per other format's (non-empty) fields on a value: they
    do not travel into ``ctx``'s format."""
    if not extra:
        return  # most values carry no extra at all
    report_foreign_fields(
        extra, path, ctx.drift, ctx.ns.format_id, ctx.label, tail=" and are not sent"
    )


def report_blocks_foreign_extra(blocks: list[Block], path: str, ctx: RenderContext) -> None:
    """:func:`report_foreign_extra` for each block of the ``content`` inside the value at
    ``path``, blocks inside tool results too."""
    for position, block in enumerate(blocks):
        block_path = item(at(path, "content"), position)
        report_foreign_extra(block.extra, block_path, ctx)
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            report_blocks_foreign_extra(block.content, block_path, ctx)


def warn_message_fields(
    message: Message, path: str, ctx: RenderContext, target: str, turn: str
) -> None:
    """Warnings for the message fields a content-block API has no place for: reasoning
    outside thinking blocks, another provider's reasoning details, an author name (not a
    tool's), other formats' fields. ``target`` names the provider ("Gemini"), ``turn`` its
    messages ("Gemini contents"). Called for every message of a render: the common one,
    which has none of these, is seen first. ``target`` and ``turn`` may be given by
    position, which spares CPython 3.11 the call's keyword handling (1,322 -> 1,100
    instructions per message of bench/convert.py's conversation)."""
    if not (message.reasoning or message.reasoning_details or message.name):
        if message.extra:  # at most other formats' fields (most messages carry none)
            report_foreign_extra(message.extra, path, ctx)
        return
    report_reasoning_text(
        message,
        path,
        ctx.drift,
        f"reasoning text outside thinking blocks cannot be sent to {target}; left out",
    )
    if message.reasoning_details:
        ctx.drift.add(
            "reasoning-dropped",
            f"reasoning details of another provider cannot be sent to {target}; left out",
            field=at(path, "reasoning_details"),
            original=message.reasoning_details,
        )
    if message.name and message.role != "tool":
        ctx.drift.add(
            "content-dropped",
            f"{turn} have no author name; left out",
            field=at(path, "name"),
            original=message.name,
        )
    report_foreign_extra(message.extra, path, ctx)


def report_call_as_text(
    path: str, drift: Drift, *, target: str, what: str = "tool calls", speaker: str
) -> None:
    """The warning for a tool call written as text because ``target`` takes ``what``
    ("tool calls") from ``speaker`` ("the assistant") only."""
    drift.add(
        "content-type-unsupported",
        f"{target} takes {what} from {speaker} only; sent as text",
        field=path,
        original="tool_use",
        transformed="text",
    )


def report_result_as_text(path: str, drift: Drift) -> None:
    """The warning for a tool result written as text: it answers no call of the turn
    before it."""
    drift.add(
        "content-type-unsupported",
        "a tool result that answers no call of the turn before was sent as text",
        field=path,
        original="tool_result",
        transformed="text",
    )


def error_said_in_content(
    content: Any, path: str, drift: Drift, results: str, *, text_type: str = "text"
) -> Any:
    """A failed tool result's content (a string, or a list of ``text_type`` parts) marked
    ``Error:``, with a ``capability-unsupported`` note: ``results`` ("ART tool results")
    have no error flag."""
    if isinstance(content, list):
        marked: Any = [{"type": text_type, "text": "Error:"}, *content]
    else:
        marked = f"Error: {content}" if content else "Error"
    drift.add(
        "capability-unsupported",
        f"{results} have no error flag; the error is said in the text",
        field=at(path, "is_error"),
        original=True,
        transformed=marked,
    )
    return marked


def report_unplaced(
    conversation: Conversation,
    earlier: list[tuple[int, Message]],
    drift: Drift,
    *,
    choice: str = "tool_choice",
) -> None:
    """Warn for what a bare message list or response has no room for: tools,
    parameters, and (for a response) the ``earlier`` turns. ``choice`` is the format's
    name for the tool choice (``toolChoice``)."""
    for index, _ in earlier:
        drift.add(
            "content-dropped", "a response holds only the answer", field=item("messages", index)
        )
    if conversation.tools:
        drift.add("tool-unsupported", "this payload shape has no tools", field="tools")
    if conversation.tool_choice is not None:
        drift.add(
            "parameter-unsupported", f"this payload shape has no {choice}", field="tool_choice"
        )
    parameters = conversation.parameters.model_dump(exclude_defaults=True)
    report_parameters_dropped(parameters, drift, "this payload shape has no parameters")


def describe(block: Block) -> dict[str, Any]:
    """What a warning shows of a block moved or left out: the block less its ``extra``,
    but never bytes nor secrets. Media are their summary (:func:`media_summary`: no base64,
    no ``data:`` URL), a thinking block has no signature or encrypted data, and the blocks
    of a tool result are described in turn."""
    source = getattr(block, "source", None)
    if isinstance(source, MediaSource):
        out: dict[str, Any] = {"type": block.type, **media_summary(source)}
        for key in ("title", "filename"):
            if getattr(block, key, None) is not None:
                out[key] = getattr(block, key)
        return out
    out = block.model_dump(
        mode="json", exclude={"extra", "signature", "data", "content"}, exclude_none=True
    )
    if isinstance(block, ToolResultBlock):
        content = block.content
        out["content"] = content if isinstance(content, str) else [describe(b) for b in content]
    return out


MESSAGE_METADATA = ("id", "timestamp", "model", "finish_reason", "usage", "metadata")


def report_message_metadata(
    thread: Iterable[tuple[int, Message]],
    drift: Drift,
    message: str,
    *,
    held: Collection[str] = (),
) -> None:
    """One note (info) for the per-message facts a payload has no place for: ids,
    timestamps, models, finish reasons, usage, metadata (less the ``held`` ones it
    carries), which of them were left out and on which messages (UMF indexes)."""
    dropped: dict[str, list[int]] = {}
    for index, entry in thread:
        # The common message has none of MESSAGE_METADATA: looked at once, with no tuple
        # or call made for it (this runs for every message of a conversion).
        if not (
            entry.id
            or entry.timestamp
            or entry.model
            or entry.finish_reason
            or entry.usage
            or entry.metadata
        ):
            continue
        for name in MESSAGE_METADATA:
            if name not in held and getattr(entry, name):
                dropped.setdefault(name, []).append(index)
    if dropped:
        drift.add(
            "content-dropped",
            message,
            field="messages",
            original=sorted(dropped),
            details={"messages": dropped},
            severity="info",
        )


def no_place_for_message_facts(request: str) -> str:
    """The note :func:`report_message_metadata` gives for a request, which has no place for
    any per-message fact; ``request`` names it with its article ("an Anthropic request")."""
    return (
        f"{request} has no per-message ids, timestamps, models, finish reasons or usage; left out"
    )


def report_message_name(message: Message, path: str, drift: Drift, why: str) -> None:
    """An info note for the ``name`` of a message other than a tool's (a tool's is the
    tool's), which the target has no place for, ``why`` in its words ("a ShareGPT turn has
    no name")."""
    if message.name is not None and message.role != "tool":
        drift.add(
            "content-dropped", why, field=at(path, "name"), original=message.name, severity="info"
        )


def offered_choice(choice: ToolChoice, tools: list[Tool], drift: Drift) -> ToolChoice:
    """``choice``, unless it forces a tool that is not offered (or names none): then any
    tool (``required``), said as ``parameter-normalized``; a provider refuses the first."""
    if choice.type != "tool" or choice.name in {tool.name for tool in tools}:
        return choice
    drift.add(
        "parameter-normalized",
        "the forced tool is not among the tools; any tool may be called",
        field="tool_choice.name",
        original=choice.name,
        transformed="any",
    )
    return ToolChoice(type="required", extra=choice.extra)


def report_no_room_for_request(conversation: Conversation, drift: Drift, *, holder: str) -> None:
    """Warn for what a list of messages has no room for: tools, tool choice and generation
    parameters. ``holder`` says what carries none ("Appam messages carry")."""
    if conversation.tools:
        drift.add(
            "tool-unsupported",
            f"{holder} no tool definitions",
            field="tools",
            original=[tool.name for tool in conversation.tools],
        )
    if conversation.tool_choice is not None:
        report_tool_choice_dropped(conversation.tool_choice, drift, f"{holder} no tool choice")
    parameters = conversation.parameters.model_dump(mode="json", exclude_defaults=True)
    report_parameters_dropped(parameters, drift, f"{holder} no generation parameters")


def report_tool_choice_dropped(choice: ToolChoice, drift: Drift, why: str) -> None:
    """The ``parameter-unsupported`` warning for a tool choice the target has no place for,
    ``why`` saying so; it shows the choice without its ``extra``."""
    drift.add(
        "parameter-unsupported",
        why,
        field="tool_choice",
        original=choice.model_dump(mode="json", exclude_defaults=True, exclude={"extra"}),
    )


def report_parameters_dropped(
    values: dict[str, Any], drift: Drift, why: str, *, under: str = "parameters"
) -> None:
    """A ``parameter-unsupported`` warning for each of ``values`` (the parameters set, as
    the caller dumped them; ``under`` is where they are in UMF), which the target has no
    place for: ``why`` says so, ``{key}`` standing for the parameter's name ("ShareGPT
    entries have no {key}")."""
    for key, value in values.items():
        drift.add(
            "parameter-unsupported",
            why.format(key=key),
            field=f"{under}.{key}",
            original=value,
        )


def report_reasoning_text(message: Message, path: str, drift: Drift, why: str) -> None:
    """The ``reasoning-dropped`` warning for a message's ``reasoning`` (text given apart
    from its thinking blocks) that the target has no place for, ``why`` saying so."""
    if message.reasoning:
        drift.add("reasoning-dropped", why, field=at(path, "reasoning"), original=message.reasoning)


def report_reasoning_details(message: Message, path: str, drift: Drift, why: str) -> None:
    """The ``reasoning-dropped`` warning for a message's ``reasoning_details`` (another
    provider's structured reasoning) that the target has no place for, ``why`` saying so;
    it counts them, never repeats them."""
    if message.reasoning_details:
        drift.add(
            "reasoning-dropped",
            why,
            field=at(path, "reasoning_details"),
            details={"count": len(message.reasoning_details)},
        )


def report_reasoning_dropped(block: ThinkingBlock, path: str, drift: Drift, why: str) -> None:
    """The warning for a thinking block left out, ``why`` saying why ("Anthropic refuses
    thinking without its signature"); it names the block's provider, never its signature."""
    drift.add(
        "reasoning-dropped",
        f"{why}; left out",
        field=path,
        original=block.text or None,
        details={"provider": block.provider, "redacted": block.redacted},
    )


def report_thinking_dropped(block: ThinkingBlock, path: str, drift: Drift, why: str) -> None:
    """The warning for a thinking block a message list leaves out, ``why`` the whole
    reason ("ART messages carry no reasoning"); it says whether the block was signed,
    never the signature."""
    drift.add(
        "reasoning-dropped",
        why,
        field=path,
        original=block.text or None,
        details={"redacted": block.redacted, "signed": bool(block.signature or block.data)},
    )


def report_unsupported_parameters(
    parameters: Parameters, keys: Iterable[str], drift: Drift, *, missing: str, custom: str
) -> None:
    """A ``parameter-unsupported`` warning for each of ``keys`` that ``parameters`` sets
    and for each custom parameter: the target has no place for them. ``missing`` and
    ``custom`` are the messages, ``{key}`` standing for the parameter's name
    ("Ollama has no {key}; left out", "custom parameter {key!r} is not sent to OpenAI")."""
    named = {key: value for key in keys if (value := getattr(parameters, key)) is not None}
    report_parameters_dropped(named, drift, missing)
    report_parameters_dropped(parameters.custom, drift, custom, under="parameters.custom")


def report_block_as_text(block: Block, path: str, drift: Drift, why: str) -> None:
    """The warning for a block (a refusal, a plain-text document) written as text, ``why``
    saying why."""
    drift.add("content-type-unsupported", why, field=path, original=block.type, transformed="text")


def report_developer(path: str, drift: Drift, why: str, *, severity: Severity = "warning") -> None:
    """The warning for a developer message written as a system one (``path`` is its role's,
    or the message's), ``why`` in the target's words; ``severity`` "info" where the target
    reads a system message as the developer's (ChatML, Ollama)."""
    drift.add(
        "system-message-transformed",
        why,
        field=path,
        original="developer",
        transformed="system",
        severity=severity,
    )


def report_citations_dropped(block: TextBlock, path: str, drift: Drift, why: str) -> None:
    """The ``content-dropped`` warning for the citations of the text block at ``path``,
    which go without their text: ``why`` says why ("citations of another provider cannot be
    sent to Bedrock")."""
    drift.add("content-dropped", why, field=f"{path}.citations", original=block.citations)


def report_block_dropped(block: Block, path: str, drift: Drift, why: str) -> None:
    """The ``content-dropped`` warning for a block left out, ``why`` saying why; it shows
    the block as :func:`describe` does (media by their summary, never their bytes)."""
    drift.add("content-dropped", why, field=path, original=describe(block))


def clamp_parameter(
    value: float, low: float, high: float | None, drift: Drift, name: str, why: str
) -> float:
    """``value`` within ``low`` and ``high`` (no upper bound when None; unchanged when it
    already is), with a ``parameter-clamped`` warning on ``parameters.<name>``, ``why`` in
    the target's words, when it had to move. A float stays a float: a temperature of -0.5
    becomes 0.0, not the bound's 0 (an integer may become a float bound: 1 -> 0.99)."""
    clamped = max(value, low) if high is None else min(max(value, low), high)
    if clamped != value:
        clamped = float(clamped) if isinstance(value, float) else clamped
        drift.add(
            "parameter-clamped",
            why,
            field=f"parameters.{name}",
            original=value,
            transformed=clamped,
        )
    return clamped


def report_field_dropped(
    path: str, key: str, value: Any, drift: Drift, why: str, *, severity: Severity = "info"
) -> None:
    """The ``content-dropped`` note (info unless ``severity`` says otherwise) for ``value``,
    the field ``key`` of what stands at ``path`` (an image's detail, a document's title, a
    message's name), which the target has no place for: ``why`` says so in its words."""
    drift.add("content-dropped", why, field=at(path, key), original=value, severity=severity)


def report_defaulted(field: str, value: Any, drift: Drift, why: str) -> None:
    """The ``parameter-defaulted`` note (info) for ``value``, written at ``field`` where the
    target requires one and the conversation has none (a file name, a parameter schema, a
    finish reason): ``why`` says so in its words."""
    drift.add("parameter-defaulted", why, field=field, transformed=value, severity="info")

"""Media that is not what it claims, checked once for every format.

An image, document or audio block whose base64 ``data`` does not decode, or whose ``url``
is a ``data:`` URL that is not a base64 data URL, is something no provider API accepts.
:func:`guarded` wraps a format's parse and render (the registry does it at registration,
so every way in and out passes here):

* **parse** keeps such a block as read (the round trip gives it back) and adds a
  ``content-type-unsupported`` warning naming its field;
* **render** into another format leaves it out with a ``content-dropped`` warning naming
  the block, so the target API gets a request it accepts; rendered back into the format it
  was read from (or into ``umf``, which carries anything) it stays as read, with a warning
  that it is sent on as it came.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from providers.formats._kit.wire import is_base64, parse_data_uri
from providers.formats.base import Drift, FormatError, ParseResult, Rendered
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    ImageBlock,
    ToolResultBlock,
)

if TYPE_CHECKING:
    from providers.formats.base import Format

_MEDIA_TYPES = frozenset({"image", "document", "audio"})
_MEDIA_CLASSES: frozenset[type] = frozenset({ImageBlock, DocumentBlock, AudioBlock})
# The format that carries any value as it is: nothing is ever left out rendering into it.
_LOSSLESS = "umf"
# Set while a conversion renders what its parse has just read and found clean
# (:func:`rendering_parsed`): the render would walk the same blocks again for nothing.
_PARSED_CLEAN: ContextVar[bool] = ContextVar("media_parsed_clean", default=False)


@dataclasses.dataclass(frozen=True)
class Misclaimed:
    """One media block that is not what it claims: where it is, its field, and why."""

    path: str
    field: str
    why: str
    summary: dict[str, Any]


def misclaimed(block: Block, path: str) -> Misclaimed | None:
    """What is wrong with a media block's inline data, or None when nothing is."""
    if not isinstance(block, ImageBlock | DocumentBlock | AudioBlock):
        return None
    why = _misclaimed_why(block)
    if why is None:
        return None
    source = block.source
    summary = {"type": block.type, "source": source.type, "media_type": source.media_type}
    summary = {key: value for key, value in summary.items() if value is not None}
    where = "data" if source.type == "base64" else "url"
    return Misclaimed(path, f"{path}.source.{where}", why, summary)


def _misclaimed_why(block: Any) -> str | None:
    """Why a media block's inline data is not what it claims, or None when it is (or when
    it has none: a URL, a file id, plain text)."""
    source = block.source
    kind = source.type
    if kind == "base64":
        data = source.data
        if data is not None and not is_base64(data):
            return f"the {block.type}'s base64 data does not decode"
    elif kind == "url":
        url = source.url
        if url is not None and url[:5].lower() == "data:":
            inline = parse_data_uri(url)
            if inline is None or not is_base64(inline[1]):
                return f"the {block.type}'s data URL is not a base64 data URL"
    return None


def find_misclaimed(conversation: Conversation) -> list[Misclaimed]:
    """Every media block of ``conversation`` that is not what it claims, tool results'
    blocks included, with its UMF path (``messages[2].content[0]``)."""
    # Every parse passes here: the loop looks at each block's class and no more (a set
    # lookup of the class, cheaper than ``isinstance`` against four), and only a media
    # block that is wrong (next to never) gets its path written.
    media = _MEDIA_CLASSES
    for message in conversation.messages:
        for block in message.content:
            kind = type(block)
            if kind in media:
                if _misclaimed_why(block) is not None:
                    return _all_misclaimed(conversation)
            elif type(block) is ToolResultBlock and type(block.content) is list:
                for item in block.content:
                    if type(item) in media and _misclaimed_why(item) is not None:
                        return _all_misclaimed(conversation)
    return []


def _all_misclaimed(conversation: Conversation) -> list[Misclaimed]:
    """:func:`find_misclaimed` once it knows there is one: every one, with its path."""
    found = []
    for index, message in enumerate(conversation.messages):
        for block_index, block in enumerate(message.content):
            if block.type in _MEDIA_TYPES:
                nested: list[tuple[str, Block]] = [("", block)]
            elif block.type == "tool_result" and type(block.content) is list:
                nested = [(f".content[{inner}]", item) for inner, item in enumerate(block.content)]
            else:
                continue
            for suffix, media in nested:
                problem = misclaimed(media, f"messages[{index}].content[{block_index}]{suffix}")
                if problem is not None:
                    found.append(problem)
    return found


def report_parsed(result: ParseResult, source: str) -> ParseResult:
    """``result`` with a ``content-type-unsupported`` warning for each misclaimed block."""
    problems = find_misclaimed(result.conversation)
    result.media_clean = not problems
    if problems:
        drift = Drift(source)
        for problem in problems:
            drift.add(
                "content-type-unsupported",
                f"{problem.why}; kept as read, but a provider API will refuse it",
                field=problem.field,
                original=problem.summary,
            )
        result.warnings.extend(drift.warnings)
    return result


def prepare_render(conversation: Conversation, target: str) -> tuple[Conversation, Drift]:
    """The conversation to render into ``target``, and the warnings for its misclaimed
    media: left out when converting, kept when rendering back into the source format."""
    drift = Drift(target)
    problems = [] if _PARSED_CLEAN.get() else find_misclaimed(conversation)
    if not problems:
        return conversation, drift
    # Read from ``target`` itself: its parser left its own fields or hints on the conversation.
    keep = target == _LOSSLESS or bool(conversation.extra.get(target))
    for problem in problems:
        if keep:
            drift.add(
                "content-type-unsupported",
                f"{problem.why}; sent on as read, and a provider API will refuse it",
                field=problem.field,
                original=problem.summary,
            )
        else:
            drift.add(
                "content-dropped",
                f"{problem.why}; left out (the target API would refuse the request)",
                field=problem.path,
                original=problem.summary,
            )
    if keep:
        return conversation, drift
    return _without(conversation, {problem.path for problem in problems}), drift


@contextmanager
def rendering_parsed(results: Sequence[ParseResult]) -> Iterator[None]:
    """Render inside it the conversations of ``results`` (a parse through the registry), as
    they were read: when the parse found no misclaimed media in any of them, the render
    does not look for it again (a conversion walks its blocks once)."""
    token = _PARSED_CLEAN.set(all(result.media_clean for result in results))
    try:
        yield
    finally:
        _PARSED_CLEAN.reset(token)


def _without(conversation: Conversation, paths: set[str]) -> Conversation:
    """A copy of ``conversation`` without the blocks at ``paths`` (shared where untouched)."""
    messages = []
    for index, message in enumerate(conversation.messages):
        path = f"messages[{index}]"
        if not any(dropped.startswith(f"{path}.") for dropped in paths):
            messages.append(message)
            continue
        content = []
        for block_index, block in enumerate(message.content):
            block_path = f"{path}.content[{block_index}]"
            if block_path in paths:
                continue
            if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
                kept = [
                    nested
                    for inner, nested in enumerate(block.content)
                    if f"{block_path}.content[{inner}]" not in paths
                ]
                if len(kept) != len(block.content):
                    block = block.model_copy(update={"content": kept})
            content.append(block)
        messages.append(message.model_copy(update={"content": content}))
    return conversation.model_copy(update={"messages": messages})


def guarded(fmt: Format) -> Format:
    """``fmt`` with its parse and render checking media (see the module docstring)."""
    return dataclasses.replace(
        fmt,
        parse=_checked_parse(fmt.parse, fmt.id),
        render=_checked_render(fmt.render, fmt.id),
        render_many=None if fmt.render_many is None else _checked_many(fmt.render_many, fmt.id),
        iter_parse=None if fmt.iter_parse is None else _checked_iter(fmt.iter_parse, fmt.id),
        read_entry=None if fmt.read_entry is None else _checked_entry(fmt.read_entry, fmt.id),
    )


def _checked_parse(
    parse: Callable[[Any], list[ParseResult]], source: str
) -> Callable[[Any], list[ParseResult]]:
    def checked(payload: Any) -> list[ParseResult]:
        return [report_parsed(result, source) for result in parse(payload)]

    return checked


def _checked_render(
    render: Callable[[Conversation], Rendered], target: str
) -> Callable[[Conversation], Rendered]:
    def checked(conversation: Conversation) -> Rendered:
        prepared, drift = prepare_render(conversation, target)
        rendered = render(prepared)
        rendered.warnings[:0] = drift.warnings
        return rendered

    return checked


def _checked_many(
    render_many: Callable[[Sequence[Conversation]], Rendered], target: str
) -> Callable[[Sequence[Conversation]], Rendered]:
    def checked(conversations: Sequence[Conversation]) -> Rendered:
        prepared = [prepare_render(conversation, target) for conversation in conversations]
        rendered = render_many([conversation for conversation, _ in prepared])
        rendered.warnings[:0] = [warning for _, drift in prepared for warning in drift.warnings]
        return rendered

    return checked


def _checked_iter(
    iter_parse: Callable[[Any], Iterator[ParseResult | FormatError]], source: str
) -> Callable[[Any], Iterator[ParseResult | FormatError]]:
    def checked(stream: Any) -> Iterator[ParseResult | FormatError]:
        for item in iter_parse(stream):
            yield item if isinstance(item, FormatError) else report_parsed(item, source)

    return checked


def _checked_entry(
    read_entry: Callable[[Any], ParseResult | FormatError], source: str
) -> Callable[[Any], ParseResult | FormatError]:
    def checked(entry: Any) -> ParseResult | FormatError:
        item = read_entry(entry)
        return item if isinstance(item, FormatError) else report_parsed(item, source)

    return checked

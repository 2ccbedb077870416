"""Claude.ai export content blocks read as UMF blocks (written back by ``_render``).

``text`` (its ``citations`` as the block's citations), ``thinking`` (display-only: a
``signature``, when one is there, stays with this format), ``tool_use`` and
``tool_result`` (both inside assistant messages: Claude.ai runs its tools itself) map to
their UMF blocks, and a ``knowledge`` result of a web search to a text document (its
title, and its URL as the source's); every other field stays verbatim in the block's
``extra``. Block types UMF has no name for (``voice_note``...) stay verbatim with their
position in the ``unmapped_blocks`` field of the message (or tool result) holding them
(so a message or tool result of the export with a field of that name is refused).
"""

from __future__ import annotations

from typing import Any

from providers.formats._kit.fields import (
    refuse_kept_name,
    require_list,
    require_mapping,
    require_str,
    unknown_fields,
)
from providers.formats._kit.ids import report_synthesized
from providers.formats.base import Drift, FormatError
from providers.umf import (
    JSON,
    Block,
    DocumentBlock,
    MediaSource,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

from ._constants import FORMAT_ID, KNOWLEDGE_SOURCE, NS, UNMAPPED


class BlockReader:
    """Reads the content blocks of one conversation, pairing results with calls and
    making up ids where a call or result has none."""

    def __init__(self, drift: Drift) -> None:
        self.drift = drift
        self.pending: list[tuple[str, str]] = []
        self.made = 0

    def read(self, raw: JSON, path: str) -> tuple[list[Block], list[Any]]:
        """``(blocks, [position, block] pairs UMF has no block for)``."""
        blocks: list[Block] = []
        unmapped: list[Any] = []
        for index, item in enumerate(require_list(raw, path)):
            block_path = f"{path}[{index}]"
            source = require_mapping(item, block_path)
            block = self._block(
                source, require_str(source.get("type"), f"{block_path}.type"), block_path
            )
            if block is None:
                unmapped.append([index, source])
            else:
                blocks.append(block)
        return blocks, unmapped

    def _block(self, source: dict[str, Any], kind: str, path: str) -> Block | None:
        if kind == "text":
            text = require_str(source.get("text"), f"{path}.text")
            citations = source.get("citations")
            cited = isinstance(citations, list) and all(isinstance(c, dict) for c in citations)
            mapped = ("type", "text", "citations") if cited else ("type", "text")
            return TextBlock(
                text=text,
                citations=citations if cited else None,
                extra=NS.extra(unknown_fields(source, mapped, path=path)),
            )
        if kind == "thinking":
            return _thinking(source, path)
        if kind == "tool_use":
            return self._call(source, path)
        if kind == "tool_result":
            return self._result(source, path)
        if kind == "knowledge" and isinstance(source.get("text"), str):
            return _knowledge(source, path)
        return None

    def _call(self, source: dict[str, Any], path: str) -> ToolUseBlock:
        name = require_str(source.get("name"), f"{path}.name")
        call_id, id_hint = self._id(
            source.get("id"), "id" in source, path, "a tool_use without an id"
        )
        arguments = source.get("input", {})
        block = ToolUseBlock(
            id=call_id,
            name=name,
            input=arguments,
            extra=NS.extra(
                unknown_fields(source, ("type", "id", "name", "input"), path=path),
                id=id_hint,
                input="absent" if "input" not in source else None,
            ),
        )
        self.pending.append((call_id, name))
        return block

    def _id(self, value: JSON, present: bool, path: str, why: str) -> tuple[str, str | None]:
        if isinstance(value, str):
            return value, None
        if value is not None:
            raise FormatError("expected a string", field=f"{path}.id")
        self.made += 1
        made = f"toolu_synthesized_{self.made}"
        report_synthesized(self.drift, why, path, made)
        return made, "null" if present else "absent"

    def _result(self, source: dict[str, Any], path: str) -> ToolResultBlock:
        refuse_kept_name(source, UNMAPPED, path)
        raw_id = source.get("tool_use_id")
        id_hint: str | None
        if raw_id is None and self.pending:
            call_id, id_hint = self.pending[0][0], "null" if "tool_use_id" in source else "absent"
            report_synthesized(
                self.drift,
                "a tool_result without an id answers the oldest unanswered call",
                path,
                call_id,
            )
        else:
            call_id, id_hint = self._id(
                raw_id, "tool_use_id" in source, path, "a tool_result without an id"
            )
        names = dict(self.pending)
        self.pending = [pair for pair in self.pending if pair[0] != call_id]
        content, content_hint, unmapped = self._result_content(source, path)
        mapped = ("type", "tool_use_id", "content", "is_error", "name")
        rest = unknown_fields(source, mapped, path=path)
        name = source.get("name")
        if "name" in source and not isinstance(name, str):
            rest["name"] = name  # a null one too: it comes back verbatim
        is_error = source.get("is_error")
        if is_error is not None and not isinstance(is_error, bool):
            rest["is_error"] = is_error
        if unmapped:
            rest[UNMAPPED] = unmapped
        return ToolResultBlock(
            tool_use_id=call_id,
            content=content,
            is_error=is_error if isinstance(is_error, bool) else None,
            name=name if isinstance(name, str) else names.get(call_id),
            extra=NS.extra(
                rest,
                id=id_hint,
                content=content_hint,
                name="absent" if not isinstance(name, str) else None,
                is_error="null" if "is_error" in source and is_error is None else None,
            ),
        )

    def _result_content(
        self, source: dict[str, Any], path: str
    ) -> tuple[str | list[Block], str | None, list[Any]]:
        if "content" not in source:
            return "", "absent", []
        content = source["content"]
        if isinstance(content, str):
            return content, None, []
        blocks, unmapped = self.read(content, f"{path}.content")
        return blocks, None, unmapped


def _knowledge(source: dict[str, Any], path: str) -> DocumentBlock:
    """A ``knowledge`` result of Claude's web search (or of a connected source): a text
    document with its title and the page's URL, so that the page, search and other
    formats read what was found."""
    mapped = ["type", "text"]
    title, url = source.get("title"), source.get("url")
    mapped += [key for key, value in (("title", title), ("url", url)) if isinstance(value, str)]
    text = source["text"]
    if isinstance(url, str):
        # Said in the text too: formats whose documents have no URL still carry it.
        text += f"{KNOWLEDGE_SOURCE}{url}"
    return DocumentBlock(
        source=MediaSource(
            type="text",
            media_type="text/plain",
            data=text,
            url=url if isinstance(url, str) else None,
        ),
        title=title if isinstance(title, str) else None,
        extra=NS.extra(unknown_fields(source, mapped, path=path), knowledge=True),
    )


def _thinking(source: dict[str, Any], path: str) -> ThinkingBlock:
    text = require_str(source.get("thinking"), f"{path}.thinking")
    signature = source.get("signature")
    mapped = (
        ("type", "thinking", "signature") if isinstance(signature, str) else ("type", "thinking")
    )
    return ThinkingBlock(
        text=text,
        signature=signature if isinstance(signature, str) else None,
        provider=FORMAT_ID if isinstance(signature, str) else None,
        extra=NS.extra(unknown_fields(source, mapped, path=path)),
    )

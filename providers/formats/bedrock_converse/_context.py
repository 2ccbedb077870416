"""What one render carries everywhere: the drift, whether to be faithful, and the rendered
block with the UMF path it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._common import report_foreign_fields
from providers.formats.base import Drift
from providers.formats.bedrock_converse._constants import FORMAT_ID
from providers.umf import Extra


@dataclass
class Context:
    """``faithful`` is set when the conversation was read from this format: everything then
    comes back exactly as it was read. ``documents`` counts default document names."""

    drift: Drift
    faithful: bool
    documents: int = 0


@dataclass
class Part:
    """One rendered content block (``{member: value}``) and the UMF path it came from.
    ``moved`` marks a block already reported as moved, so it is not reported twice."""

    body: dict[str, Any]
    path: str
    moved: bool = field(default=False)

    @property
    def member(self) -> str:
        """The union member the block sets (``text``, ``toolUse``...)."""
        return next(iter(self.body), "")

    @property
    def value(self) -> Any:
        """The value of that member."""
        return self.body.get(self.member)


def text_part(text: str, path: str) -> Part:
    """A plain text block."""
    return Part({"text": text}, path)


def warn_foreign_extra(extra: Extra, path: str, ctx: Context) -> None:
    """One ``field-unknown`` note per other format's fields: they do not travel. Fields
    that hold nothing (null, empty) are not worth a note."""
    report_foreign_fields(
        extra, path, ctx.drift, FORMAT_ID, "Bedrock Converse", tail=" and are not sent"
    )


def is_blank_text(part: Part) -> bool:
    """A text block Bedrock refuses: empty or whitespace only."""
    return part.member == "text" and not str(part.value).strip()


def drop_blank_text(parts: list[Part], ctx: Context) -> list[Part]:
    """``parts`` without blank text blocks (each dropped one noted as info)."""
    kept = []
    for part in parts:
        if is_blank_text(part):
            ctx.drift.add(
                "content-dropped",
                "Bedrock refuses blank text blocks; left out",
                field=part.path,
                original=part.value,
                severity="info",
            )
        else:
            kept.append(part)
    return kept

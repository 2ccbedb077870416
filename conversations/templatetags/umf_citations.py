"""Cited text read as one passage, with numbered references to its sources.

Providers split a cited answer in two ways. Anthropic (and Claude exports) cut the answer
into text blocks, each with the citations of its own words: "Workers measure 7 to 12 mm"
[cites Species notes], ", and", "the colony was under bark" [cites Field log]. OpenAI
Responses keeps one text and annotates character ranges of it (``end_index``). Shown
block by block, the first reads as scraps of sentences. Here a message's run of
consecutive text blocks that holds a citation becomes one ``cited_text`` block: the
texts joined, a numbered marker after each cited span (at its ``end_index`` when the
citation gives one inside the text), and the sources listed once each, numbered.

The markers travel through the markdown renderer as private-use characters (removed
from the text first, so a message cannot forge one) and become ``<sup>`` links after
it has sanitised the HTML; what they add is digits and an id built here.
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.utils.safestring import mark_safe

from conversations.selectors.thread import ShownBlock
from conversations.templatetags.umf_render import render_markdown, safe_url

register = template.Library()

_OPEN, _CLOSE = "\ue000", "\ue001"
_MARKER = re.compile(f"{_OPEN}(\\d+){_CLOSE}")


@register.filter
def cited_runs(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The message's blocks, each run of text blocks that holds a citation as one
    ``cited_text`` block (the blocks as they are when none has a citation)."""
    blocks: list[dict[str, Any]] = message["blocks"]
    if not any(block["type"] == "text" and block.get("citations") for block in blocks):
        return blocks
    shown: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []
    for block in [*blocks, None]:
        if block is not None and block["type"] == "text":
            run.append(block)
            continue
        if any(part.get("citations") for part in run):
            shown.append(_passage(run, f"cite-{message['id']}-{len(shown)}"))
        else:
            shown.extend(run)
        run = []
        if block is not None:
            shown.append(block)
    return shown


def _passage(run: list[dict[str, Any]], anchor: str) -> ShownBlock:
    sources: list[dict[str, Any]] = []
    numbers: dict[tuple[str, str, str], int] = {}
    text = []
    for block in run:
        marks: list[tuple[int, int]] = []
        piece = block.get("text") or ""
        for citation in block.get("citations") or ():
            if not isinstance(citation, dict):
                continue
            source = _source(citation)
            key = (source["title"], source["quote"], source["url"])
            if key not in numbers:
                numbers[key] = len(sources) + 1
                sources.append({**source, "number": numbers[key], "id": f"{anchor}-{numbers[key]}"})
            mark = (_position(citation, piece), numbers[key])
            if mark not in marks:
                marks.append(mark)
        text.append(_marked(piece, marks))
    html = _MARKER.sub(
        lambda match: f'<sup class="cite"><a href="#{anchor}-{match[1]}">{match[1]}</a></sup>',
        render_markdown("".join(text)),
    )
    return ShownBlock(type="cited_text", html=mark_safe(html), sources=sources)


def _source(citation: dict[str, Any]) -> dict[str, Any]:
    title = next(
        (
            str(citation[key])
            for key in ("document_title", "title", "filename", "url", "file_id")
            if citation.get(key)
        ),
        "a source",
    )
    quote = citation.get("cited_text")
    return {
        "title": title,
        "quote": quote if isinstance(quote, str) else "",
        "url": safe_url(citation.get("url")) if isinstance(citation.get("url"), str) else "",
    }


def _position(citation: dict[str, Any], text: str) -> int:
    """Where the marker goes: after the cited span when the citation says where it ends
    in this text (OpenAI's ``end_index``), else after the block's text."""
    end = citation.get("end_index")
    if isinstance(end, int) and not isinstance(end, bool) and 0 < end <= len(text):
        return end
    return len(text.rstrip())


def _marked(text: str, marks: list[tuple[int, int]]) -> str:
    """``text`` (without the marker characters) with ``marks`` (position, number) in."""
    clean = text.replace(_OPEN, "").replace(_CLOSE, "")
    if len(clean) != len(text):  # positions counted in the text as given
        marks = [(min(position, len(clean)), number) for position, number in marks]
    out, last = [], 0
    for position, number in sorted(marks):
        out.append(clean[last:position])
        out.append(f"{_OPEN}{number}{_CLOSE}")
        last = position
    out.append(clean[last:])
    return "".join(out)

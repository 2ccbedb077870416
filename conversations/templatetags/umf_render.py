"""Filters that turn conversation content into HTML that can never run script.

Markdown goes through markdown-it (raw HTML off), code through Pygments (classes only,
no inline styles), and the result through nh3 (an allow-list of tags, attributes and URL
schemes) before it is marked safe. Everything else is autoescaped by the templates.
"""

from __future__ import annotations

import functools
import json
import re
from decimal import Decimal
from typing import Any
from urllib.parse import urlsplit

import nh3
from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from conversations import pricing, selectors

register = template.Library()

_FORMATTER = HtmlFormatter(nowrap=True, classprefix="hl-")
_ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "del", "code", "pre", "span", "blockquote",
    "ul", "ol", "li", "a", "h1", "h2", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
_ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "span": {"class"}, "code": {"class"}}
_SAFE_SCHEMES = {"http", "https", "mailto"}
# Messages repeat across replays and pages; rendering is pure, so keep the recent ones.
_CACHE_SIZE = 4096


@functools.lru_cache(maxsize=64)
def _lexer(language: str) -> Lexer | None:
    """The lexer for a fence's language (looking one up by name walks every lexer)."""
    try:
        return get_lexer_by_name(language) if language else None
    except ClassNotFound:
        return None


def _highlight(code: str, language: str, _attributes: str) -> str:
    lexer = _lexer(language.strip().lower())
    if lexer is None:
        return ""  # markdown-it escapes the code itself
    return f'<pre><code class="hl">{highlight(code, lexer, _FORMATTER)}</code></pre>'


# "commonmark" with raw HTML off: tags in a message are text, never markup.
# Line breaks are kept: chat messages (poems, lists typed by hand) mean them.
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "breaks": True, "highlight": _highlight})
_MARKDOWN.enable("table")
_MARKDOWN.enable("strikethrough")
# A message's headings sit below the page's own (its h1 title, the thread's h2): "# x" in
# a message is an h3, so the page's outline never skips a level.
_HEADING_SHIFT = 2


def _shift_headings(state: StateCore) -> None:
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + _HEADING_SHIFT, 6)}"


_MARKDOWN.core.ruler.push("shift_headings", _shift_headings)


# Plain prose (most chat messages) renders to paragraphs and line breaks and nothing
# else; such text is recognised here and built directly, without the parser and sanitiser
# (~20 times faster). Anything that could be markup, or be escaped on the way, goes the
# long way: characters with a meaning inside a line, and lines that could open a block
# (indented code, heading, quote, list, rule, setext underline, table, fence).
_INLINE_MARKUP = re.compile(r"[\\`*_\[\]<>&~|\xa0\x00-\x09\x0b-\x1f\x7f]|[^\S \n]")
_BLOCK_MARKUP = re.compile(r"^(?: +[^ \n]|[#>+=\-:]|\d+[.)])", re.MULTILINE)
_BLANK_LINES = re.compile(r"\n(?: *\n)+")


def plain_text_html(text: str) -> str | None:
    """The HTML ``render_markdown`` gives ``text`` when it is plain prose, else None."""
    if _INLINE_MARKUP.search(text) or _BLOCK_MARKUP.search(text):
        return None
    paragraphs = _BLANK_LINES.split(text.strip(" \n"))
    return "".join(
        "<p>" + "<br>\n".join(line.rstrip(" ") for line in paragraph.split("\n")) + "</p>\n"
        for paragraph in paragraphs
        if paragraph
    )


# ChatGPT's citation markers, left in the text of its exports: ``【3†Title†www.site.org】``
# (a numbered source with its title and domain), ``【11†source】``, ``【turn0search1】``,
# and the private-use form of 2025-2026, ``\ue200cite\ue202turn0search1\ue201``
# (``\ue200entity\ue202["people","Ada Lovelace"]\ue201`` names an entity in the text).
# A marker with a domain becomes a link to it; an entity shows its name; the rest are
# hidden: the export does not say where they pointed.
_CHATGPT_MARKER = re.compile(
    "【[^【】\n]{1,200}】|\ue200([a-z_]+)((?:\ue202[^\ue200\ue201\ue202]*)*)\ue201"
)
_MARKER_SOURCE = re.compile(r"【\d+†([^†】]*)†((?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,})】")
_MARKER_LINK_OPEN, _MARKER_LINK_CLOSE = "\ue010", "\ue011"
_MARKER_LINK = re.compile(f"{_MARKER_LINK_OPEN}(\\d+){_MARKER_LINK_CLOSE}")


def _without_markers(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with ChatGPT's markers taken out: a link's place is kept as a private-use
    placeholder (its number in the list of (title, domain) returned)."""
    text = text.replace(_MARKER_LINK_OPEN, "").replace(_MARKER_LINK_CLOSE, "")
    links: list[tuple[str, str]] = []

    def replace(match: re.Match[str]) -> str:
        if match[1] == "entity":
            try:
                name = json.loads(match[2].split("\ue202")[1])[1]
            except (ValueError, IndexError, TypeError, KeyError):
                return ""
            return name if isinstance(name, str) else ""
        source = _MARKER_SOURCE.fullmatch(match[0])
        if source is None:
            return ""
        links.append((source[1], source[2]))
        return f"{_MARKER_LINK_OPEN}{len(links) - 1}{_MARKER_LINK_CLOSE}"

    return _CHATGPT_MARKER.sub(replace, text), links


def _marker_link(title: str, domain: str) -> str:
    return (
        f'<sup class="cite"><a href="https://{domain}/" title="{escape(title)}" '
        f'rel="noopener noreferrer nofollow">{domain}</a></sup>'
    )


@functools.lru_cache(maxsize=_CACHE_SIZE)
def render_markdown(text: str) -> str:
    """Markdown to sanitised HTML: no raw HTML, no images, only http(s)/mailto links.
    ChatGPT's citation markers become links to their source's site or are hidden."""
    links: list[tuple[str, str]] = []
    if "【" in text or "\ue200" in text or _MARKER_LINK_OPEN in text:
        text, links = _without_markers(text)
    plain = plain_text_html(text)
    html = plain if plain is not None else parse_markdown(text)
    if links:
        html = _MARKER_LINK.sub(lambda match: _marker_link(*links[int(match[1])]), html)
    return html


def parse_markdown(text: str) -> str:
    """``render_markdown`` the long way, for any text: the parser, then the sanitiser."""
    html = _MARKDOWN.render(text)
    return nh3.clean(
        html,
        tags=_ALLOWED_TAGS,
        attributes=_ALLOWED_ATTRIBUTES,
        url_schemes=_SAFE_SCHEMES,
        link_rel="noopener noreferrer nofollow",
    )


@register.filter
def markdown(text: str | None) -> SafeString:
    return mark_safe(render_markdown(text or ""))


@register.filter
def code_arguments(block: dict[str, Any]) -> SafeString | None:
    """A code tool's arguments as highlighted code: a call whose input is only
    ``{"code": "..."}`` (ChatGPT's code interpreter, ``python``), else None."""
    arguments = block.get("input")
    if not isinstance(arguments, dict) or list(arguments) != ["code"]:
        return None
    code = arguments["code"]
    if not isinstance(code, str) or block.get("raw_arguments"):
        return None
    lexer = _lexer(str(block.get("name") or "").lower()) or _lexer("python")
    assert lexer is not None
    return mark_safe(f'<code class="hl">{highlight(code, lexer, _FORMATTER)}</code>')


@register.filter
def pretty_json(value: Any) -> str:
    """Indented JSON (autoescaped by the template like any text)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return str(value)
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


@register.filter
def safe_url(url: str | None) -> str:
    """The URL when it is plain http(s), else an empty string (no javascript:, data:)."""
    if not url:
        return ""
    return url if urlsplit(url.strip()).scheme.lower() in {"http", "https"} else ""


@register.filter
def highlighted_snippet(snippet: str | None) -> SafeString:
    """A search snippet, escaped, with its hit markers turned into <mark>."""
    text = str(escape(snippet or ""))
    text = text.replace(str(escape(selectors.HIT_START)), "<mark>")
    text = text.replace(str(escape(selectors.HIT_STOP)), "</mark>")
    return mark_safe(text)


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    return mapping.get(key) if mapping else None


@register.filter
def sibling_index(message: dict[str, Any]) -> int:
    return int(message["siblings"].index(message["id"])) + 1


@register.filter
def sibling_before(message: dict[str, Any]) -> Any:
    siblings, at = message["siblings"], message["siblings"].index(message["id"])
    return siblings[at - 1] if at > 0 else None


@register.filter
def sibling_after(message: dict[str, Any]) -> Any:
    siblings, at = message["siblings"], message["siblings"].index(message["id"])
    return siblings[at + 1] if at + 1 < len(siblings) else None


@register.filter
def cost(usage: dict[str, Any] | None, model: str | None) -> str:
    """The approximate price of a message's usage, or an em dash when unknown."""
    value = pricing.cost(model, usage)
    if value is None:
        return "—"
    return f"${value:.4f}" if value >= Decimal("0.01") or value == 0 else f"${value:.6f}"


@register.filter
def usage_line(message: dict[str, Any]) -> str:
    """A message's token counts and price on one line ("12 in · 40 out · ≈ $0.0004"), in
    one filter rather than a dozen lookups: the conversation page shows it 500 times."""
    usage = message["usage"]
    parts = [
        f"{usage.get('prompt_tokens') or '?'} in",
        f"{usage.get('completion_tokens') or '?'} out",
    ]
    for key, label in (("reasoning_tokens", "reasoning"), ("cached_tokens", "cached")):
        if usage.get(key):
            parts.append(f"{usage[key]} {label}")
    parts.append(f"≈ {cost(usage, message.get('model'))}")
    return " · ".join(parts)


@register.filter
def block_template(block: dict[str, Any]) -> list[str]:
    """The include for a block: ``blocks/<type>.html`` (a new block type is one new file),
    or the generic one."""
    return [f"conversations/blocks/{block.get('type')}.html", "conversations/blocks/unknown.html"]

"""The search box's syntax, read once for both databases: PostgreSQL's ``websearch``
semantics (words are ANDed, ``"a phrase"`` matches words in a row, ``-word`` excludes,
``or`` between words gives alternatives; AND binds tighter than OR, as in its tsquery).

Chinese and Japanese are written without spaces, and neither PostgreSQL's parser nor
SQLite's tokenizer splits them: a message's run of such characters is one word, which a
search for a word inside it never matches. So each message also stores its CJK text as
single characters and overlapping pairs of characters (``search_cjk``), and a CJK word in
a query becomes the phrase of its pairs: ``天気予報`` is ``"天気 気予 予報"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Han ideographs (and extension A, compatibility), hiragana, katakana (and halfwidth).
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
CJK_RUN = re.compile(f"[{CJK}]+")
_TOKEN = re.compile(r'(-?)"([^"]*)"?|(\S+)')
# Characters that separate words in a query (PostgreSQL's parser splits on them too).
_SEPARATORS = re.compile(r"[^\w\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]+")


def cjk_terms(text: str) -> str:
    """What ``search_cjk`` holds for ``text``: for each CJK run its pairs then its single
    characters, and the text's other words (those written against CJK characters are
    not words of their own in ``search_text``); empty for text with no CJK."""
    if text.isascii():  # most text: no regular expression to run (100 µs for 1 KB)
        return ""
    runs = CJK_RUN.findall(text)
    if not runs:
        return ""
    parts: list[str] = []
    for run in runs:
        parts.extend(run[i : i + 2] for i in range(len(run) - 1))
        parts.extend(run)
    parts.append(CJK_RUN.sub(" ", text))
    return " ".join(parts)


@dataclass
class Term:
    """A word or a phrase (``words`` in a row), maybe excluded."""

    words: list[str]
    negated: bool = False


@dataclass
class SearchQuery:
    """Alternatives (OR) of groups of terms that must all hold (AND)."""

    groups: list[list[Term]] = field(default_factory=list)

    def positive_words(self) -> list[str]:
        """The words a match shows (to highlight), in the order of the query."""
        return [w for group in self.groups for t in group if not t.negated for w in t.words]


def parse(query: str) -> SearchQuery:
    """Read the search box as PostgreSQL's ``websearch_to_tsquery`` would."""
    groups: list[list[Term]] = [[]]
    for match in _TOKEN.finditer(query):
        minus, phrase, bare = match.groups()
        if bare is not None and bare.lower() == "or":
            if groups[-1]:
                groups.append([])
            continue
        negated = bool(minus) if phrase is not None else bare.startswith("-")
        text = phrase if phrase is not None else bare.lstrip("-")
        words = [w for w in _SEPARATORS.split(text) if w]
        if words:
            groups[-1].append(Term(words, negated))
    return SearchQuery([group for group in groups if group])


def _cjk_words(word: str) -> list[str]:
    """A query word as the stored tokens it stands for, in a row."""
    if not CJK_RUN.search(word):
        return [word]
    out: list[str] = []
    for piece in re.split(f"([{CJK}]+)", word):
        if not piece:
            continue
        if CJK_RUN.fullmatch(piece) and len(piece) > 1:
            out.extend(piece[i : i + 2] for i in range(len(piece) - 1))
        else:
            out.append(piece)
    return out


def _expanded(term: Term) -> list[Term]:
    """``term`` as terms over the stored tokens: a CJK word is the phrase of its pairs;
    a word mixing CJK and other letters (``Python教程``), each part on its own."""
    if len(term.words) > 1 or not CJK_RUN.search(term.words[0]):
        return [Term([w for word in term.words for w in _cjk_words(word)], term.negated)]
    word = term.words[0]
    pieces = [p for p in re.split(f"([{CJK}]+)", word) if p]
    if term.negated or len(pieces) == 1:
        return [Term(_cjk_words(word), term.negated)]
    return [Term(_cjk_words(piece)) for piece in pieces]


def expanded(query: SearchQuery) -> SearchQuery:
    """``query`` over the stored tokens (CJK words as phrases of their pairs)."""
    return SearchQuery([[t for term in group for t in _expanded(term)] for group in query.groups])


def to_websearch(query: SearchQuery) -> str:
    """``query`` (expanded) written back for PostgreSQL's ``websearch_to_tsquery``."""

    def term(t: Term) -> str:
        text = t.words[0] if len(t.words) == 1 else '"' + " ".join(t.words) + '"'
        return ("-" if t.negated else "") + text

    return " or ".join(" ".join(term(t) for t in group) for group in expanded(query).groups)


def fts5_phrase(term: Term) -> str:
    """One term as an FTS5 phrase (quoted: FTS5 operators in it are plain words)."""
    return '"' + " ".join(w.replace('"', '""') for w in term.words) + '"'

"""cited_runs: a message's cited text blocks read as one passage with numbered sources."""

from __future__ import annotations

from typing import Any

from conversations.selectors.thread import ShownBlock
from conversations.templatetags.umf_citations import cited_runs


def message(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"id": "m1", "blocks": [ShownBlock(block) for block in blocks]}


def text(value: str, *citations: Any) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": value}
    if citations:
        block["citations"] = list(citations)
    return block


def sup(number: int, passage: int = 0) -> str:
    return f'<sup class="cite"><a href="#cite-m1-{passage}-{number}">{number}</a></sup>'


def test_blocks_without_citations_are_left_as_they_are() -> None:
    shown = message(text("a"), {"type": "tool_use", "id": "c"}, text("b"))
    assert cited_runs(shown) is shown["blocks"]


def test_an_openai_annotation_marks_the_end_of_its_span_inside_one_text() -> None:
    cite = {"type": "url_citation", "url": "https://ex.com/a", "title": "A", "end_index": 5}
    [passage] = cited_runs(message(text("Rain today, sun tomorrow.", cite)))
    assert passage["type"] == "cited_text"
    assert passage["html"] == f"<p>Rain {sup(1)}today, sun tomorrow.</p>\n"
    [source] = passage["sources"]
    assert source == {
        "title": "A", "quote": "", "url": "https://ex.com/a", "number": 1, "id": "cite-m1-0-1"
    }  # fmt: skip


def test_one_source_cited_twice_keeps_one_number() -> None:
    cite = {"document_title": "Notes", "cited_text": "x"}
    [passage] = cited_runs(message(text("One", cite), text(" and two.", cite)))
    assert passage["html"] == f"<p>One{sup(1)} and two.{sup(1)}</p>\n"
    assert len(passage["sources"]) == 1


def test_a_block_between_texts_makes_two_passages_in_order() -> None:
    cite = {"title": "T"}
    call = {"type": "tool_use", "id": "c"}
    shown = cited_runs(message(text("a", cite), call, text("plain"), text("b", cite)))
    assert [block["type"] for block in shown] == ["cited_text", "tool_use", "cited_text"]
    assert sup(1, 0) in shown[0]["html"]
    assert sup(1, 2) in shown[2]["html"] and "plain" in shown[2]["html"]


def test_a_message_cannot_forge_a_marker_and_its_markup_stays_text() -> None:
    forged = "<b>x</b> \ue0007\ue001 done"
    [passage] = cited_runs(message(text(forged, {"title": "<script>"})))
    assert "<b>" not in passage["html"] and "&lt;b&gt;" in passage["html"]
    assert passage["html"].count("<sup") == 1 and ">7<" not in passage["html"]
    assert passage["sources"][0]["title"] == "<script>"  # the template escapes it


def test_only_http_urls_become_links_and_odd_citations_are_skipped() -> None:
    cites = ({"url": "javascript:alert(1)"}, "not an object", {"end_index": True})
    [passage] = cited_runs(message(text("Hi.", *cites)))
    assert [source["url"] for source in passage["sources"]] == ["", ""]
    assert passage["sources"][0]["title"] == "javascript:alert(1)"
    assert passage["html"] == f"<p>Hi.{sup(1)}{sup(2)}</p>\n"

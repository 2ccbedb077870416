"""ChatGPT's text as a reader should see it: citation markers left in an export's text
become links to their source's site or are hidden, and code-interpreter calls show their
code highlighted, not as a JSON string."""

from __future__ import annotations

from typing import Any

import pytest

from conversations.templatetags.umf_render import code_arguments, render_markdown
from tests.conftest import load_fixture
from tests.conversations.helpers import html, logged_in, store


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Rain【11†source】 today.", "<p>Rain today.</p>"),
        ("Rain【turn0search1】 today.", "<p>Rain today.</p>"),
        ("Rain\ue200cite\ue202turn0search1\ue202turn0news2\ue201 today.", "<p>Rain today.</p>"),
        ('In \ue200entity\ue202["city","Paris",""]\ue201 today.', "<p>In Paris today.</p>"),
        ("In \ue200entity\ue202not json\ue201 today.", "<p>In  today.</p>"),
        ("**Rain**【2†x】 today.", "<p><strong>Rain</strong> today.</p>"),
    ],
)
def test_markers_without_a_site_are_hidden(text: str, shown: str) -> None:
    assert render_markdown(text).strip() == shown


def test_a_marker_with_a_site_links_to_it_with_its_title() -> None:
    shown = render_markdown("Vingegaard won【0†Vingegaard wins the Tour†www.letour.fr】.")
    assert shown.startswith("<p>Vingegaard won<sup")
    assert '<a href="https://www.letour.fr/" title="Vingegaard wins the Tour"' in shown
    assert 'rel="noopener noreferrer nofollow">www.letour.fr</a></sup>.</p>' in shown


def test_a_marker_cannot_inject_markup_or_forge_a_placeholder() -> None:
    shown = render_markdown(
        'See【1†"><script>x()</script>†evil.example】 \ue0100\ue011 and 【9†t†javascript:x】'
    )
    assert "<script" not in shown and "javascript" not in shown
    assert 'title="&quot;&gt;&lt;script&gt;x()&lt;/script&gt;"' in shown
    assert shown.count("<sup") == 1  # the forged placeholder is plain text, not a link


def test_text_without_markers_is_unchanged() -> None:
    assert render_markdown("a【b") == "<p>a【b</p>\n"


def test_code_interpreter_arguments_are_highlighted_code() -> None:
    code = code_arguments({"name": "python", "input": {"code": "x = 1  # one"}})
    assert code is not None and 'class="hl-c1"' in code and "x" in code
    # Arguments that are not just code stay JSON (None: the template pretty-prints them).
    assert code_arguments({"name": "python", "input": {"code": "x", "timeout": 3}}) is None
    assert code_arguments({"name": "search", "input": {"query": "x"}}) is None
    raw = {"name": "python", "input": {"code": "x"}, "raw_arguments": '{"code": "x"}'}
    assert code_arguments(raw) is None


@pytest.mark.django_db
def test_the_page_shows_chatgpt_code_interpreter_code_highlighted(alice: Any) -> None:
    payload = load_fixture("chatgpt-export/code_interpreter.json")
    conversation = store(alice, payload, format_id="chatgpt-export")
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    assert '<code class="hl"><span class="hl-kn">import</span>' in page
    assert "&quot;code&quot;" not in page  # not shown as a JSON string

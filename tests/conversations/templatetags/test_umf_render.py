"""The markdown filter: its shortcut for plain prose gives exactly what the parser gives."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from conversations.templatetags.umf_render import (
    parse_markdown,
    plain_text_html,
    render_markdown,
    usage_line,
)

# Prose with the line starts that open blocks, then with every character the shortcut
# has to refuse: inline markup, entities, and whitespace other than the space.
PROSE = st.text(alphabet=st.sampled_from(list("ab Z9 1 é.,;:?!'\"()-=+#>\n\n   ")), max_size=60)
HOSTILE = st.text(
    alphabet=st.sampled_from(list("ab 1 .\n\n  -#") + list("*_`[]<>&~|\\\t\r\xa0\u3000\u2028")),
    max_size=60,
)


@given(st.one_of(PROSE, HOSTILE))
@example("Hello world.")
@example("a  \nb\n\n\nc d \n e")
@example("x\n1. a")
@example("x\n===")
@example("    code after\n\n    indent")
def test_the_shortcut_agrees_with_the_parser(text: str) -> None:
    shortcut = plain_text_html(text)
    if shortcut is not None:
        assert shortcut == parse_markdown(text)


@given(st.text(st.characters(exclude_categories=["Cs"]), max_size=40))
def test_the_shortcut_agrees_with_the_parser_on_any_text(text: str) -> None:
    shortcut = plain_text_html(text)
    if shortcut is not None:
        assert shortcut == parse_markdown(text)


def test_prose_takes_the_shortcut_and_markup_does_not() -> None:
    prose = "Sure, the forecast for Paris: rain (80%).\nTake an umbrella.\n\nThanks!"
    assert plain_text_html(prose) == (
        "<p>Sure, the forecast for Paris: rain (80%).<br>\nTake an umbrella.</p>\n<p>Thanks!</p>\n"
    )
    for markup in ["**bold**", "# title", "- item", "1. item", "a <b>", "```\ncode\n```"]:
        assert plain_text_html(markup) is None


def test_markup_is_still_rendered_and_sanitised() -> None:
    html = render_markdown("**bold** <script>x</script> [a](javascript:alert(1))")
    assert "<strong>bold</strong>" in html
    assert "<script>" not in html
    assert 'href="javascript:' not in html


def test_the_usage_line_says_what_the_source_counted() -> None:
    message = {"model": "no-such-model", "usage": {"completion_tokens": 7, "cached_tokens": 3}}
    assert usage_line(message) == "? in · 7 out · 3 cached · ≈ —"
    message = {"model": "gpt-4o", "usage": {"prompt_tokens": 1000, "completion_tokens": 10,
                                            "reasoning_tokens": 4}}  # fmt: skip
    assert usage_line(message).startswith("1000 in · 10 out · 4 reasoning · ≈ $0.0")

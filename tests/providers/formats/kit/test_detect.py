"""The scores the kit gives a message list and a message's content
(``providers.formats._kit.detect``)."""

from __future__ import annotations

import pytest

from providers.formats._kit.detect import score_content, score_messages, typed_block_score
from providers.umf import JSON

_score_part = typed_block_score(("text", "image_url", "refusal"), {"image_url"})


@pytest.mark.parametrize(
    ("part", "score"),
    [
        ({"type": "text"}, 1),
        ({"type": "image_url"}, 2),
        ({"type": "input_text"}, 0),
        ({"text": "no type"}, 0),
        ({"type": ["not", "a", "name"]}, 0),
        ("text", 0),
    ],
)
def test_a_typed_block_scores_by_its_type(part: JSON, score: int) -> None:
    assert _score_part(part) == score


@pytest.mark.parametrize(
    ("content", "score"),
    [
        ("plain text", 1),
        ([], 1),
        ([{"type": "text"}], 1),
        ([{"type": "text"}, {"type": "image_url"}], 2),
        ([{"type": "image_url"}, {"type": "input_text"}], 0),
        (None, 0),
        ({"type": "text"}, 0),
    ],
)
def test_content_is_text_or_blocks_that_all_fit_and_scores_as_its_surest(
    content: JSON, score: int
) -> None:
    assert score_content(content, _score_part) == score


def test_a_message_list_is_not_empty_and_scores_as_its_surest_message() -> None:
    def by_content(message: JSON) -> int:
        return (
            score_content(message.get("content"), _score_part) if isinstance(message, dict) else 0
        )

    assert score_messages([], by_content) == 0
    assert score_messages({"content": "hi"}, by_content) == 0
    assert (
        score_messages([{"content": "hi"}, {"content": [{"type": "image_url"}]}], by_content) == 2
    )
    assert score_messages([{"content": "hi"}, {"content": None}], by_content) == 0

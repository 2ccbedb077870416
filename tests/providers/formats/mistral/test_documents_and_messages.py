"""The ``mistral`` format rendering realistic imports from other formats: documents, refusals,
citations, late system messages and user turns left alone by a dropped answer.
"""

from __future__ import annotations

from typing import Any

from providers.umf import (
    TextBlock,
)
from tests.providers.formats.chat_completions._helpers import (
    FIXTURES,
    load,
    summary,
)
from tests.providers.formats.mistral._helpers import (
    assert_renders,
    imported,
)


def test_documents_by_url_travel_and_bytes_do_not() -> None:
    payload, warnings = assert_renders(imported("anthropic", "multimodal_documents"))
    source = load(FIXTURES / "anthropic" / "multimodal_documents.json")
    content = source["messages"][0]["content"]
    assert payload["messages"][0]["content"][2:5] == [
        {"type": "document_url", "document_url": content[4]["source"]["url"]},
        {"type": "text", "text": content[5]["source"]["data"]},
        {
            "type": "text",
            "text": "Observation 1: colony found under bark.\n\nObservation 2: nocturnal foraging.",
        },
    ]
    lossy = [w for w in summary(warnings) if w[0] != "field-unknown"]
    assert lossy == [
        (
            "content-dropped",
            "messages[0].content[2]",
            {
                "type": "image",
                "source": "file",
                "file_id": "file_011CNha8iCJcU1wXNR6q4V8w",
            },
            None,
        ),
        (
            "content-dropped",
            "messages[0].content[3]",
            {
                "type": "document",
                "source": "base64",
                "size": 193,
                "media_type": "application/pdf",
                "title": "Field guide, chapter 3",
            },
            None,
        ),
        (
            "content-type-unsupported",
            "messages[0].content[5]",
            {
                "type": "document",
                "source": "text",
                "media_type": "text/plain",
                "title": "Species notes",
            },
            "text",
        ),
        (
            "content-type-unsupported",
            "messages[0].content[6]",
            {"type": "document", "source": "text", "title": "Field log"},
            "text",
        ),
        ("content-dropped", "messages[1].content[1].citations", content_citations(source, 1), None),
        ("content-dropped", "messages[1].content[3].citations", content_citations(source, 3), None),
        (
            "content-dropped",
            "messages[2].content[0]",
            {
                "type": "document",
                "source": "file",
                "file_id": "file_011CPMxVD3fHLUhvTqtsQA5w",
                "title": "Appendix",
            },
            None,
        ),
    ]


def content_citations(source: Any, index: int) -> Any:
    return source["messages"][1]["content"][index]["citations"]


def test_refusals_become_text_and_the_last_answer_a_prefix() -> None:
    payload, warnings = assert_renders(imported("openai-chat", "refusal_exchange"))
    assert payload["messages"][1] == {
        "role": "assistant",
        "content": "I can't help with getting into someone else's home.",
    }
    assert payload["messages"][3] == {
        "role": "assistant",
        "content": "I'm sorry, I can't help with that.",
        "prefix": True,
    }
    assert summary(warnings)[1:] == [
        (
            "content-dropped",
            "messages",
            ["finish_reason", "id", "model", "timestamp", "usage"],
            None,
        ),
        ("content-type-unsupported", "messages[1].content[0]", "refusal", "text"),
        ("content-type-unsupported", "messages[3].content[0]", "refusal", "text"),
        ("parameter-defaulted", "messages[3]", None, {"prefix": True}),
    ]


def test_citations_of_other_formats_are_dropped() -> None:
    conversation = imported("openai-chat", "web_search_annotations")
    payload, warnings = assert_renders(conversation)
    text = conversation.messages[1].content[0]
    assert isinstance(text, TextBlock)
    assert payload["messages"][1] == {"role": "assistant", "content": text.text, "prefix": True}
    assert summary(warnings)[1:] == [
        (
            "content-dropped",
            "messages",
            ["finish_reason", "id", "model", "timestamp", "usage"],
            None,
        ),
        ("content-dropped", "messages[1].content[0].citations", text.citations, None),
        ("parameter-defaulted", "messages[1]", None, {"prefix": True}),
    ]


def test_a_late_system_message_joins_the_leading_one() -> None:
    payload, warnings = assert_renders(imported("anthropic", "search_results_system_message"))
    assert [m["role"] for m in payload["messages"]].count("system") == 1
    assert payload["messages"][0]["content"][1] == {
        "type": "text",
        "text": "From now on, answer in at most two sentences.",
    }
    assert [(w.category, w.field) for w in warnings] == [
        ("field-unknown", "messages[1].extra.anthropic"),
        ("field-unknown", "messages[3].content[0].extra.anthropic"),
        ("system-message-transformed", "messages[4]"),
        ("id-rewritten", "messages[2].content[0].id"),
        ("content-dropped", "messages[5].content[0].citations"),
    ]
    assert summary(warnings)[2] == ("system-message-transformed", "messages[4]", 4, 0)


def test_a_user_turn_left_alone_by_a_dropped_answer_is_merged() -> None:
    payload, warnings = assert_renders(imported("openai-chat", "audio_exchange"))
    assert [m["role"] for m in payload["messages"]] == ["user"]
    assert summary(warnings)[-1] == ("role-merged", "messages[2]", "user", "user")
    assert warnings[-1].details == {"merged_into": "messages[0]"}

"""The ``cohere`` format rendering realistic imports from other formats: documents, audio and
PDF bytes, late system messages, developer messages, names and ranges, and citations.
"""

from __future__ import annotations

from providers.umf import (
    TextBlock,
)
from tests.providers.formats.chat_completions._helpers import (
    FIXTURES,
    load,
    summary,
)
from tests.providers.formats.cohere._helpers import (
    assert_renders,
    imported,
)


def test_documents_become_document_data_or_are_dropped() -> None:
    payload, warnings = assert_renders(imported("anthropic", "multimodal_documents"))
    source = load(FIXTURES / "anthropic" / "multimodal_documents.json")
    url = source["messages"][0]["content"][4]["source"]["url"]
    assert payload["documents"] == [
        {"data": {"url": url}},
        {
            "data": {
                "title": "Species notes",
                "text": source["messages"][0]["content"][5]["source"]["data"],
            }
        },
        {
            "data": {
                "title": "Field log",
                "text": "Observation 1: colony found under bark.\n\n"
                "Observation 2: nocturnal foraging.",
            }
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
                "media_type": "application/pdf",
                "size": 193,
                "title": "Field guide, chapter 3",
            },
            None,
        ),
        (
            "content-type-unsupported",
            "messages[0].content[4]",
            {"type": "document", "source": "url", "url": url},
            "documents[0]",
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
            "documents[1]",
        ),
        (
            "content-type-unsupported",
            "messages[0].content[6]",
            {"type": "document", "source": "text", "title": "Field log"},
            "documents[2]",
        ),
        (
            "content-dropped",
            "messages[1].content[1].citations",
            source["messages"][1]["content"][1]["citations"],
            None,
        ),
        (
            "content-dropped",
            "messages[1].content[3].citations",
            source["messages"][1]["content"][3]["citations"],
            None,
        ),
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


def test_audio_and_pdf_bytes_are_dropped() -> None:
    _, warnings = assert_renders(imported("openai-chat", "multimodal_request"))
    assert summary(warnings)[1:] == [
        (
            "content-dropped",
            "messages[1].content[3]",
            {"type": "audio", "source": "base64", "media_type": "audio/wav", "size": 364},
            None,
        ),
        (
            "content-dropped",
            "messages[1].content[4]",
            {
                "type": "document",
                "source": "base64",
                "media_type": "application/pdf",
                "size": 125,
                "filename": "invoice.pdf",
            },
            None,
        ),
        (
            "content-dropped",
            "messages[1].content[5]",
            {
                "type": "document",
                "source": "file",
                "file_id": "file-6F2ksmvXxt4VdoqmHRw6kL",
            },
            None,
        ),
    ]


def test_a_late_system_message_joins_the_leading_one() -> None:
    payload, warnings = assert_renders(imported("anthropic", "search_results_system_message"))
    assert payload["messages"][0] == {
        "role": "system",
        "content": [
            {"type": "text", "text": "Answer with citations to the search results you are given."},
            {"type": "text", "text": "From now on, answer in at most two sentences."},
        ],
    }
    assert [(w.category, w.field) for w in warnings] == [
        ("field-unknown", "messages[1].extra.anthropic"),
        ("field-unknown", "messages[3].content[0].extra.anthropic"),
        ("system-message-transformed", "messages[4]"),
        ("content-dropped", "messages[5].content[0].citations"),
    ]
    assert summary(warnings)[2] == ("system-message-transformed", "messages[4]", 4, 0)
    assert [m["role"] for m in payload["messages"]].count("system") == 1


def test_developer_messages_names_and_ranges() -> None:
    _, warnings = assert_renders(imported("openai-chat", "developer_name_unknown_fields"))
    lossy = [w for w in summary(warnings) if w[0] != "field-unknown"]
    assert lossy == [
        ("content-dropped", "messages[0].name", "acme_app", None),
        ("system-message-transformed", "messages[0]", "developer", "system"),
        ("content-dropped", "messages[1].name", "maria_k", None),
        ("content-dropped", "messages[2].name", "coder", None),
        ("content-dropped", "messages[4].name", "maria_k", None),
        ("parameter-clamped", "parameters.top_p", 1.0, 0.99),
        ("parameter-unsupported", "parameters.user", "user-1234", None),
        ("parameter-defaulted", "tools[0].parameters", None, {"type": "object", "properties": {}}),
    ]


def test_citations_of_other_formats_are_dropped() -> None:
    conversation = imported("openai-chat", "web_search_annotations")
    payload, warnings = assert_renders(conversation)
    text = conversation.messages[1].content[0]
    assert isinstance(text, TextBlock)
    assert payload["messages"][1] == {"role": "assistant", "content": text.text}
    assert summary(warnings)[1:] == [
        (
            "content-dropped",
            "messages",
            ["finish_reason", "id", "model", "timestamp", "usage"],
            None,
        ),
        ("content-dropped", "messages[1].content[0].citations", text.citations, None),
    ]

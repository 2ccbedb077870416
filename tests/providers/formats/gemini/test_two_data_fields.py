"""A Gemini part that holds two data fields (``text`` and ``inlineData``): both are
content, so both become blocks (with a warning), and the part comes back as it was."""

from __future__ import annotations

from providers import formats

PNG = "iVBORw0KGgo="

GEMINI_TWO_FIELDS = {
    "contents": [
        {
            "role": "user",
            "parts": [
                {
                    "text": "What is in this picture?",
                    "inlineData": {"mimeType": "image/png", "data": PNG},
                },
            ],
        }
    ]
}


def test_a_gemini_part_with_text_and_inline_data_is_two_blocks_with_a_warning() -> None:
    [item] = formats.parse("gemini", GEMINI_TWO_FIELDS).items
    blocks = item.conversation.messages[0].content
    assert [block.type for block in blocks] == ["image", "text"]
    assert [(w.category, w.field) for w in item.warnings] == [
        ("content-type-unsupported", "contents[0].parts[0]")
    ]
    assert formats.get("gemini").render(item.conversation).payload == GEMINI_TWO_FIELDS


def test_a_gemini_part_with_two_data_fields_converts_both() -> None:
    converted = formats.convert("gemini", "anthropic", GEMINI_TWO_FIELDS)
    content = converted.payload["messages"][0]["content"]
    assert [block["type"] for block in content] == ["image", "text"]
    assert content[1]["text"] == "What is in this picture?"

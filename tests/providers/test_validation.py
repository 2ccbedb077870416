"""providers.validation: what a conversation must pass before it is stored, and NUL
characters (PostgreSQL cannot store one) refused with their path or replaced."""

from __future__ import annotations

import pytest

from providers import formats
from providers.formats.base import FormatError
from providers.umf import Conversation
from providers.validation import check_conversation, replace_nul


def conversation(*texts: str) -> Conversation:
    return Conversation.model_validate(
        {"messages": [{"role": "user", "content": [{"type": "text", "text": t}]} for t in texts]}
    )


def test_a_nul_character_is_refused_with_its_path() -> None:
    with pytest.raises(FormatError) as caught:
        check_conversation(conversation("fine", "a\x00b"))
    assert caught.value.field == "messages[1].content[0].text"
    assert "NUL character" in caught.value.message


def test_the_text_backslash_u0000_is_not_a_nul() -> None:
    check_conversation(conversation("a literal \\u0000 in code", "\\\\u0000"))


def test_replace_nul_replaces_in_strings_and_keys_and_says_where() -> None:
    value = {"a": "x\x00y", "b": ["\\u0000", "q\\\x00"], "k\x00": 1, "c": "fine"}
    replaced, paths = replace_nul(value)
    assert replaced == {"a": "x\ufffdy", "b": ["\\u0000", "q\\\ufffd"], "k\ufffd": 1, "c": "fine"}
    assert sorted(paths) == ["a", "b[1]", "k\ufffd"]  # stored: no NUL in a path either


@pytest.mark.parametrize("value", [{"a": "plain"}, ["\\u0000", "\\\\u0000"], "x", 1, None])
def test_replace_nul_gives_back_the_value_itself_when_there_is_none(value: object) -> None:
    replaced, paths = replace_nul(value)
    assert replaced is value and paths == []


def test_a_value_a_reader_built_with_the_wrong_type_is_refused_before_it_is_stored() -> None:
    # Readers build UMF by keyword, which checks no value (providers.umf.UMFModel): a
    # check a reader missed must still end as a FormatError naming the field, not a row.
    built = conversation("fine", "also fine")
    built.messages[1].content[0].text = 42  # type: ignore[union-attr]
    with pytest.raises(FormatError) as caught:
        check_conversation(built)
    assert caught.value.field == "messages[1].content[0].text"
    assert "string" in caught.value.message


def test_a_wrong_value_outside_the_messages_is_named_too() -> None:
    # The messages are checked one at a time (issue 21: a dump of the whole conversation
    # held it three times over), then the rest: an error there keeps its path.
    built = conversation("fine", "also fine")
    built.parameters.temperature = "hot"  # type: ignore[assignment]
    with pytest.raises(FormatError) as caught:
        check_conversation(built)
    assert caught.value.field == "parameters.temperature"


def test_what_the_umf_reader_validated_is_not_checked_again_but_the_rest_is() -> None:
    # UMF input is validated once, where it enters (the umf format's reader): the store's
    # value check is for readers that build without validating, and is skipped for it.
    [read] = formats.parse("umf", [{"role": "user", "content": "hello"}]).items
    assert read.validated
    read.conversation.messages[0].content[0].text = 42  # type: ignore[union-attr]
    check_conversation(read.conversation, validated=read.validated)  # not checked again
    with pytest.raises(FormatError):
        check_conversation(read.conversation)  # a reader that did not validate: checked
    read.conversation.messages[0].content[0].text = "a NUL \x00"  # type: ignore[union-attr]
    with pytest.raises(FormatError) as caught:  # what no reader checks still is
        check_conversation(read.conversation, validated=True)
    assert caught.value.field == "messages[0].content[0].text"


def test_other_readers_leave_their_values_to_the_store_check() -> None:
    payload = {"model": "m", "messages": [{"role": "user", "content": "hello"}]}
    [read] = formats.parse("openai-chat", payload).items
    assert not read.validated

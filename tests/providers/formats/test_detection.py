"""``auto`` detection across every registered format and every fixture."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import orjson
import pytest

from providers import formats

FIXTURES = Path(__file__).parents[2] / "fixtures"
REGISTERED = {fmt.id for fmt in formats.all_formats()}
CASES = [
    path
    for directory in sorted(FIXTURES.iterdir())
    if directory.is_dir() and directory.name in REGISTERED
    for path in sorted(directory.glob("*.json"))
]


def load(path: Path) -> object:
    return orjson.loads(path.read_bytes())


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_fixture_is_detected_as_its_own_format(path: Path) -> None:
    payload = load(path)
    detected = formats.detect(payload).id
    # A payload several formats read identically may go to the preferred one.
    if detected != path.parent.name:
        own = formats.get(path.parent.name).parse(payload)
        other = formats.get(detected).parse(payload)
        assert [formats._meaning(i.conversation) for i in own] == [
            formats._meaning(i.conversation) for i in other
        ], f"{path} detected as {detected}, which reads it differently"


def test_a_plain_text_chat_fits_several_formats_and_goes_to_the_preferred_one() -> None:
    payload = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert formats.detect(payload).id == formats.DETECTION_PREFERENCE[0]


def test_an_unknown_payload_names_no_candidate() -> None:
    with pytest.raises(formats.FormatDetectionError) as error:
        formats.detect({"what": "is this"})
    assert error.value.candidates == []
    assert error.value.field == "payload"


def test_a_payload_read_differently_by_the_candidates_is_ambiguous() -> None:
    umf, chat = formats.get("umf"), formats.get("openai-chat")
    payload = [{"role": "user", "content": "hi"}]

    def different_reading(value: object) -> list[formats.ParseResult]:
        items = umf.parse(value)
        items[0].conversation.messages[0].name = "someone else"
        return items

    reads_differently = dataclasses.replace(umf, parse=different_reading)
    with pytest.raises(formats.FormatDetectionError) as error:
        formats._break_tie(payload, [reads_differently, chat])
    assert set(error.value.candidates) == {"umf", "openai-chat"}

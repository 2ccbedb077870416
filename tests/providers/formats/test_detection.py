"""``auto`` detection across every registered format and every fixture: each fixture is
detected as its own format, which alone is sure of it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import orjson
import pytest

from providers import formats
from providers.formats._kit import detect as kit

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
        assert [kit.meaning(i.conversation) for i in own] == [
            kit.meaning(i.conversation) for i in other
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
        kit.break_tie(payload, [reads_differently, chat])
    assert set(error.value.candidates) == {"umf", "openai-chat"}


# Fixtures that every candidate reads the same way, with no field only one format has: a
# true tie, which goes to the preferred format (the reading, and so the round trip, is equal).
TRUE_TIES = {"anthropic/bare_messages": "openai-chat"}


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_fixture_is_detected_as_exactly_its_own_format(path: Path) -> None:
    name = f"{path.parent.name}/{path.stem}"
    assert formats.detect(load(path)).id == TRUE_TIES.get(name, path.parent.name)


# Formats that do not even take another format's fixture for a maybe (score 0, not 1):
# their payloads have a shape of their own (a text, a file of entries, span attributes).
NEVER_A_MAYBE = {"chatml", "chatgpt-export", "claude-export", "sharegpt", "otel-genai"}
NEVER_A_MAYBE |= {"openai-finetune"}


@pytest.mark.parametrize("format_id", sorted(REGISTERED))
@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_format_is_sure_of_its_own_fixtures_only(path: Path, format_id: str) -> None:
    score = formats.get(format_id).detect(load(path))
    if format_id == path.parent.name:
        # A true tie is one that no field marks as its own format's.
        assert score == (1 if f"{format_id}/{path.stem}" in TRUE_TIES else 2)
    elif format_id in NEVER_A_MAYBE:
        assert score == 0
    else:
        assert score < 2


_CHAT = [
    {"role": "system", "content": "Answer from the documents."},
    {"role": "user", "content": "Where is Paris?"},
]
_TOOL_LOOP = [
    {"role": "user", "content": "Weather in Paris?"},
    {
        "role": "assistant",
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "w", "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
]
_COHERE = {"model": "command-a-03-2025"}
_MISTRAL = {"model": "mistral-large-latest", "random_seed": 42, "safe_prompt": True}
_DOCUMENTS = {
    "documents": [{"id": "d1", "data": {"text": "Paris is in France."}}],
    "citation_options": {"mode": "FAST"},
}
_SAMPLING = {"p": 0.9, "k": 40, "safety_mode": "CONTEXTUAL", "priority": 1}
_TEXT = {"type": "text", "text": "From now on, answer in French."}

DISTINCTIVE_CASES: dict[str, tuple[object, str]] = {
    # Cohere's documents decide over response_format (OpenAI, Mistral and Cohere have it)
    # and over tool calls with string arguments (OpenAI's shape, and Cohere's).
    "cohere documents, response_format": (
        {**_COHERE, "messages": _CHAT, **_DOCUMENTS, "response_format": {"type": "json_object"}},
        "cohere",
    ),
    "cohere documents, tool loop": ({**_COHERE, "messages": _TOOL_LOOP, **_DOCUMENTS}, "cohere"),
    # p, k, safety_mode and priority are Cohere's; stop_sequences is Anthropic's and Cohere's.
    "cohere sampling, stop_sequences": (
        {**_COHERE, "messages": _CHAT, **_SAMPLING, "stop_sequences": ["END"]},
        "cohere",
    ),
    # thinking is Anthropic's and Cohere's field; a token_budget in it is Cohere's.
    "cohere thinking": (
        {**_COHERE, "messages": _CHAT, "thinking": {"type": "enabled", "token_budget": 1024}}
        | {"stop_sequences": ["END"]},
        "cohere",
    ),
    # random_seed and safe_prompt are Mistral's; parallel_tool_calls is OpenAI's and Mistral's.
    "mistral seed, parallel_tool_calls": (
        {**_MISTRAL, "messages": _CHAT, "parallel_tool_calls": True},
        "mistral",
    ),
    "mistral seed, response_format": (
        {**_MISTRAL, "messages": _TOOL_LOOP, "response_format": {"type": "text"}},
        "mistral",
    ),
    # A bare Anthropic list with a system message in the middle: its cache_control and
    # citations on text blocks are Anthropic's.
    "anthropic mid system, cache_control": (
        [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": [{**_TEXT, "text": "Hello", "citations": None}]},
            {"role": "system", "content": [{**_TEXT, "cache_control": {"type": "ephemeral"}}]},
            {"role": "user", "content": "How are you?"},
        ],
        "anthropic",
    ),
    # A thinking block with a signature: Cohere's thinking parts have none.
    "anthropic mid system, signed thinking": (
        [
            {"role": "user", "content": "Hi"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "A greeting.", "signature": "EqQBCkgIARAB"},
                    {"type": "text", "text": "Hello"},
                ],
            },
            {"role": "system", "content": "From now on, answer in French."},
            {"role": "user", "content": "How are you?"},
        ],
        "anthropic",
    ),
}


@pytest.mark.parametrize(
    ("payload", "expected"), DISTINCTIVE_CASES.values(), ids=DISTINCTIVE_CASES.keys()
)
def test_a_field_only_one_format_has_decides(payload: object, expected: str) -> None:
    assert formats.detect(payload).id == expected


def test_a_true_tie_read_differently_is_refused_naming_the_candidates() -> None:
    # thinking without a budget: Anthropic's and Cohere's field, and nothing else decides.
    payload = {**_COHERE, "messages": _CHAT, "thinking": {"type": "enabled"}}
    fitting = [fmt for fmt in formats.all_formats() if fmt.detect(payload)]
    anthropic, cohere = formats.get("anthropic"), formats.get("cohere")

    def other_reading(value: object) -> list[formats.ParseResult]:
        items = cohere.parse(value)
        items[0].conversation.messages[0].name = "someone else"
        return items

    reads_differently = [
        dataclasses.replace(fmt, parse=other_reading) if fmt is cohere else fmt for fmt in fitting
    ]
    with pytest.raises(formats.FormatDetectionError) as error:
        kit.detect(payload, reads_differently)
    assert set(error.value.candidates) == {anthropic.id, cohere.id}
    assert "anthropic, cohere" in error.value.message


def test_a_field_two_formats_declare_decides_nothing() -> None:
    stop_sequences = {"model": "m", "messages": _CHAT, "stop_sequences": ["END"]}
    assert formats.get("anthropic").detect(stop_sequences) == 1
    assert formats.get("cohere").detect(stop_sequences) == 1
    assert formats.get("cohere").detect({**stop_sequences, "k": 5}) == 2


OPENAI_BODY = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize("named", ["gemini", "bedrock-converse", "chatgpt-export"])
def test_a_payload_in_another_format_than_named_says_which_it_is(named: str) -> None:
    # A person who picked the wrong format in a list learns the right one.
    with pytest.raises(formats.FormatError) as refused:
        formats.parse(named, OPENAI_BODY)
    assert refused.value.message.endswith(
        f"— this reads as openai-chat (OpenAI Chat Completions), not {named}: "
        "import it as openai-chat, or as auto"
    )


def test_a_payload_no_format_reads_keeps_the_named_format_s_reason() -> None:
    with pytest.raises(formats.FormatError) as refused:
        formats.parse("gemini", {"neither": "one"})
    assert "reads as" not in refused.value.message
    assert refused.value.message.startswith("not a Gemini generateContent payload")


NOT_STRINGS = [[], {}, [1], 1]


@pytest.mark.parametrize("format_id", sorted(REGISTERED))
@pytest.mark.parametrize("value", NOT_STRINGS, ids=repr)
def test_a_type_or_role_that_is_not_a_string_is_scored(format_id: str, value: object) -> None:
    # A list or an object where a name belongs is unhashable: looked up in a set of names,
    # it once raised TypeError out of auto detection instead of being scored.
    detect = formats.get(format_id).detect
    for payload in (
        [{"type": value}],
        [{"role": "user", "content": "x", "type": value}],
        [{"role": value, "content": "x"}],
        {"messages": [{"role": value, "content": "x"}]},
        [{"role": "user", "content": [{"type": value}]}],
    ):
        assert detect(payload) in (0, 1, 2), payload

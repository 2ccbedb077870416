"""The UMF types: validation, helpers from the seeds, and the tree walk."""

from __future__ import annotations

from typing import Any

import msgspec
import orjson
import pytest

from providers import umf
from providers._umf_base import Typed, UMFModel
from providers._umf_walk import field_defaults
from providers.formats.base import Drift


def test_helpers_build_messages_like_the_seed_describes() -> None:
    call = umf.ToolUseBlock(id="call_123", name="search", input={"query": "rust"})
    message = umf.assistant("Searching...", [call])
    result = umf.tool_result("call_123", "search", "Found results...")

    assert umf.system("Be brief.").role == "system"
    assert umf.user("What is Rust?").content == [umf.TextBlock(text="What is Rust?")]
    assert umf.extract_text(message) == "Searching..."
    assert umf.extract_tool_calls(message) == [call]
    assert umf.has_tool_calls(message) and not umf.has_tool_calls(result)
    assert result.role == "tool" and result.tool_call_id == "call_123"
    assert result.content[0] == umf.ToolResultBlock(
        tool_use_id="call_123", name="search", content="Found results..."
    )


def test_extract_reasoning_prefers_thinking_blocks_then_reasoning_field() -> None:
    thinking = umf.Message(
        role="assistant",
        content=[umf.ThinkingBlock(text="step one"), umf.ThinkingBlock(text="step two")],
        reasoning="ignored",
    )
    assert umf.extract_reasoning(thinking) == "step one\nstep two"
    assert umf.extract_reasoning(umf.Message(role="assistant", reasoning="why")) == "why"
    assert umf.extract_reasoning(umf.assistant("plain")) is None


def test_blocks_are_a_discriminated_union_with_type_always_dumped() -> None:
    message = umf.Message.model_validate(
        {"role": "user", "content": [{"type": "image", "source": {"type": "url", "url": "u"}}]}
    )
    assert isinstance(message.content[0], umf.ImageBlock)
    dumped = message.model_dump(mode="json", exclude_defaults=True)
    assert dumped["content"][0] == {"type": "image", "source": {"type": "url", "url": "u"}}


@pytest.mark.parametrize(
    "bad",
    [
        {"role": "robot", "content": []},
        {"role": "user", "content": [{"type": "video"}]},
        {"role": "user", "content": [{"type": "text"}]},
        {"role": "user", "content": [], "unknown_key": 1},
    ],
)
def test_invalid_messages_are_rejected(bad: dict[str, object]) -> None:
    with pytest.raises(umf.UMFValidationError):
        umf.Message.model_validate(bad)


@pytest.mark.parametrize(
    ("bad", "field", "message"),
    [
        ({"role": "robot"}, "role", "'robot' is not an allowed value"),
        ({"role": "user", "content": [{"type": "video"}]}, "content[0].type", "'video' is not"),
        ({"role": "user", "content": [{"type": "text"}]}, "content[0].text", "required field"),
        ({"role": "user", "unknown_key": 1}, "unknown_key", "not a UMF field"),
        ({"role": "user", "timestamp": 0}, "timestamp", "expected a timestamp or null, got an"),
        ({"role": "user", "timestamp": "soon"}, "timestamp", "expected an RFC 3339 timestamp"),
        ({"role": "user", "usage": {"prompt_tokens": "3"}}, "usage.prompt_tokens", "a string"),
    ],
)
def test_a_refusal_names_the_field_in_words(
    bad: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(umf.UMFValidationError) as caught:
        umf.Message.model_validate(bad)
    assert caught.value.field == field
    assert message in caught.value.message


def test_main_path_follows_parents_to_the_chosen_leaf() -> None:
    conversation = umf.Conversation(
        messages=[
            umf.Message(role="user", id="a", content=[umf.TextBlock(text="q")]),
            umf.Message(role="assistant", id="b", parent_id="a"),
            umf.Message(role="assistant", id="c", parent_id="a"),
            umf.Message(role="user", id="d", parent_id="b"),
        ]
    )
    assert [m.id for m in umf.main_path(conversation)] == ["a", "b", "d"]
    assert [m.id for m in umf.main_path(conversation, "c")] == ["a", "c"]


def test_in_a_tree_a_message_without_parent_follows_the_one_before_it() -> None:
    # As storage reads it: only the first message is a root, so the system prompt and the
    # question that no parent_id names are still on the thread to the last answer.
    conversation = umf.Conversation(
        messages=[
            umf.system("Be brief."),
            umf.Message(role="user", id="q", content=[umf.TextBlock(text="Hi")]),
            umf.Message(role="assistant", id="a1", parent_id="q"),
            umf.Message(role="assistant", id="a2", parent_id="q"),
            umf.Message(role="user", id="f"),
        ]
    )
    assert [m.id for m in umf.main_path(conversation, "a2")] == [None, "q", "a2"]
    assert [m.id for m in umf.main_path(conversation)] == [None, "q", "a2", "f"]
    assert [m.id for m in umf.main_path(conversation, "a1")] == [None, "q", "a1"]


def test_main_path_of_a_linear_conversation_is_the_list() -> None:
    conversation = umf.Conversation(messages=[umf.user("a"), umf.assistant("b")])
    assert umf.main_path(conversation) == conversation.messages


def test_warning_categories_are_the_contract() -> None:
    assert set(umf.WARNING_CATEGORIES) >= {
        "parameter-normalized",
        "model-substituted",
        "content-dropped",
        "reasoning-dropped",
        "signature-stripped",
        "role-merged",
        "id-rewritten",
        "parameter-defaulted",
    }
    with pytest.raises(umf.UMFValidationError):
        umf.DriftWarning.model_validate({"category": "made-up", "message": "x"})


def test_keyword_construction_checks_the_field_names_only() -> None:
    # Formats build UMF by keyword while converting; values are validated once, at the
    # edges (model_validate), so a keyword value is kept as given.
    with pytest.raises(TypeError, match="Unexpected keyword argument 'txt'"):
        umf.TextBlock(txt="hi")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="Missing required argument 'id'"):
        umf.ToolUseBlock()  # type: ignore[call-arg]
    kept: object = umf.TextBlock(text=42).text  # type: ignore[arg-type]
    assert kept == 42


def test_keyword_construction_builds_the_same_value_as_validation() -> None:
    data = {"role": "user", "content": [{"type": "text", "text": "hi"}], "name": "ann"}
    built = umf.Message(role="user", content=[umf.TextBlock(text="hi")], name="ann")
    validated = umf.Message.model_validate(data)
    assert built == validated
    assert built.model_dump_json() == validated.model_dump_json()  # same keys, same order
    assert built.model_dump(exclude_defaults=True) == validated.model_dump(exclude_defaults=True)
    assert list(built.model_dump(exclude_defaults=True)) == ["role", "content", "name"]


def test_a_drift_warning_recorded_is_the_value_built_by_keyword() -> None:
    # Drift.add builds its warnings with every field given: the same value, its JSON in
    # the same order.
    drift = Drift("gemini")
    drift.add("role-merged", "merged", field="messages[1]", original="tool", details={"a": 1})
    built = umf.DriftWarning(
        category="role-merged",
        severity="warning",
        message="merged",
        field="messages[1]",
        original_value="tool",
        transformed_value=None,
        source="gemini",
        details={"a": 1},
    )
    [recorded] = drift.warnings
    assert recorded == built
    assert recorded.model_dump_json() == built.model_dump_json()


def test_mutable_defaults_are_fresh_for_every_value() -> None:
    first, second = umf.Message(role="user"), umf.Message(role="user")
    first.content.append(umf.TextBlock(text="x"))
    first.extra["f"] = {}
    first.metadata["k"] = 1
    assert second.content == [] and second.extra == {} and second.metadata == {}


def test_validation_still_checks_nested_values() -> None:
    # Building by keyword checks nothing; validating checks every block, at any depth.
    with pytest.raises(umf.UMFValidationError) as caught:
        umf.Conversation.model_validate(
            {"messages": [{"role": "user", "content": [{"type": "text", "text": 1}]}]}
        )
    assert caught.value.field == "messages[0].content[0].text"


def _umf_classes() -> list[type[UMFModel]]:
    found: list[type[UMFModel]] = []
    stack = list(UMFModel.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__ == umf.__name__:
            found.append(cls)
    return sorted(found, key=lambda cls: cls.__name__)


@pytest.mark.parametrize("cls", _umf_classes(), ids=lambda cls: cls.__name__)
def test_every_umf_class_takes_its_fields_by_keyword_and_a_tagged_one_its_type_as_tag(
    cls: type[UMFModel],
) -> None:
    # Each class says kw_only and its tag itself (no metaclass says them for it).
    with pytest.raises(TypeError):
        cls("positional")
    if issubclass(cls, Typed):
        assert cls.__struct_config__.tag == cls.type


def _spelled_defaults(cls: type[UMFModel]) -> dict[str, object]:
    """Each field of ``cls`` with a default, spelled as a document gives it."""
    return {
        name: default.model_dump(mode="json") if isinstance(default, UMFModel) else default
        for name, default in field_defaults(cls).items()
    }


def _required(cls: type[UMFModel]) -> dict[str, object]:
    samples: dict[type[UMFModel], dict[str, object]] = {
        umf.MediaSource: {"type": "url"},
        umf.TextBlock: {"text": "t"},
        umf.RefusalBlock: {"text": "t"},
        umf.ImageBlock: {"source": {"type": "url"}},
        umf.DocumentBlock: {"source": {"type": "url"}},
        umf.AudioBlock: {"source": {"type": "url"}},
        umf.ToolUseBlock: {"id": "c", "name": "n"},
        umf.ToolResultBlock: {"tool_use_id": "c"},
        umf.Message: {"role": "user"},
        umf.Tool: {"name": "n"},
        umf.ToolChoice: {"type": "auto"},
        umf.DriftWarning: {"category": "role-merged", "message": "m"},
        umf.Response: {"message": {"role": "assistant"}},
        umf.StreamStart: {"sequence": 0},
        umf.StreamContent: {"sequence": 0, "delta": "d"},
        umf.StreamToolUse: {"sequence": 0, "id": "c", "name": "n"},
        umf.StreamMetadata: {"sequence": 0},
        umf.StreamDone: {"sequence": 0, "finish_reason": "stop"},
        umf.StreamError: {"sequence": 0, "code": "c", "message": "m"},
    }
    return samples.get(cls, {})


@pytest.mark.parametrize("cls", _umf_classes(), ids=lambda cls: cls.__name__)
def test_a_default_read_from_json_is_left_out_of_the_umf_json(cls: type[UMFModel]) -> None:
    # The UMF JSON leaves out every field that holds its default, however the value came
    # (msgspec compares a default by identity: an equal string read from a document must
    # be left out too). JSON bytes, so that no value is the default object itself.
    tag = {"type": cls.type} if issubclass(cls, Typed) else {}
    required = {**tag, **_required(cls)}
    document = orjson.dumps({**required, **_spelled_defaults(cls)})
    read = cls.model_validate(orjson.loads(document))
    # Built by keyword, a string default may be an equal string made by a reader.
    built = msgspec.structs.replace(read, **_fresh_strings(field_defaults(cls)))
    for value in (read, built):
        assert value.model_dump(mode="json", exclude_defaults=True) == required
        assert orjson.loads(value.model_dump_json(exclude_defaults=True)) == required


def _fresh_strings(defaults: dict[str, object]) -> dict[str, str]:
    return {
        name: "".join([default[:1], default[1:]])  # equal, not the same object
        for name, default in defaults.items()
        if isinstance(default, str) and default
    }


def test_a_warning_built_by_keyword_from_a_document_leaves_out_its_default_severity() -> None:
    # A reader that builds warnings by keyword (ai.matey's, the archive's rows) gives an
    # equal string, not msgspec's default object: the UMF JSON leaves it out all the same,
    # inside a conversation's metadata too.
    severity: Any = "".join(["warn", "ing"])
    warning = umf.DriftWarning(category="role-merged", message="m", severity=severity)
    conversation = umf.Conversation(metadata=umf.Metadata(warnings=[warning]))
    expected = {"metadata": {"warnings": [{"category": "role-merged", "message": "m"}]}}
    assert conversation.model_dump(mode="json", exclude_defaults=True) == expected
    assert orjson.loads(conversation.model_dump_json(exclude_defaults=True)) == expected
    assert warning.model_dump(mode="json")["severity"] == "warning"  # a full dump keeps it


def test_an_integer_in_a_float_field_is_written_as_a_float() -> None:
    # Readers keep "temperature": 0 as they read it (their own round trip writes it back
    # so); the UMF JSON writes a float field as a float, as it always has.
    conversation = umf.Conversation(parameters=umf.Parameters(temperature=0, top_p=1, seed=3))
    expected = {"parameters": {"temperature": 0.0, "top_p": 1.0, "seed": 3}}
    assert conversation.model_dump(mode="json", exclude_defaults=True) == expected
    assert conversation.model_dump_json(exclude_defaults=True) == (
        '{"parameters":{"temperature":0.0,"top_p":1.0,"seed":3}}'
    )
    assert type(conversation.model_dump(mode="json")["parameters"]["temperature"]) is float
    # The value keeps what was read, and so does a Python dump (as pydantic's did).
    assert type(conversation.parameters.temperature) is int
    assert type(conversation.model_dump(exclude_defaults=True)["parameters"]["top_p"]) is int


def _nested() -> umf.Conversation:
    return umf.Conversation(
        messages=[
            umf.Message(
                role="tool",
                content=[
                    umf.ToolResultBlock(
                        tool_use_id="c",
                        content=[umf.TextBlock(text="t", extra={"x": {"deep": [1, {"k": 2}]}})],
                    )
                ],
                metadata={"tags": ["a"]},
            )
        ],
        parameters=umf.Parameters(stop=["END"], custom={"n": {"m": 1}}),
        metadata=umf.Metadata(warnings=[umf.DriftWarning(category="role-merged", message="m")]),
    )


def test_a_deep_copy_shares_nothing_that_can_change() -> None:
    original = _nested()
    copied = original.model_copy(deep=True)
    assert copied == original
    result = copied.messages[0].content[0]
    assert isinstance(result, umf.ToolResultBlock) and isinstance(result.content, list)
    result.content[0].extra["x"]["deep"][1]["k"] = 3
    copied.messages[0].metadata["tags"].append("b")
    copied.parameters.stop.append("STOP")  # type: ignore[union-attr]
    copied.parameters.custom["n"]["m"] = 2
    copied.metadata.warnings[0].message = "changed"
    assert original == _nested()

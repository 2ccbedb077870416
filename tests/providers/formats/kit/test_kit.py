"""The formats kit (``providers.formats._kit``) on its own: the field reader, the tool-name
rewriter, the two ways a taken id is made unique, the parameter clamp, the net for values
UMF refuses, and the render context's numbering."""

from __future__ import annotations

import re

import pytest

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import clamp_parameter
from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import Fields, umf_checked, union_member
from providers.formats._kit.ids import (
    ToolNames,
    call_id_from_hash,
    full_match,
    report_synthesized,
    salted_id,
    suffixed,
)
from providers.formats.base import Drift, FormatError
from providers.umf import Message


def test_fields_refuse_dollar_names_and_the_names_a_format_keeps() -> None:
    with pytest.raises(FormatError) as dollar:
        Fields({"$shape": 1}, "messages[0]")
    assert dollar.value.field == "messages[0].$shape"
    with pytest.raises(FormatError) as kept:
        Fields({"unmapped_blocks": []}, "messages[0]", kept=("unmapped_blocks",))
    assert kept.value.field == "messages[0].unmapped_blocks"
    assert Fields({"unmapped_blocks": []}, "messages[0]").rest == {"unmapped_blocks": []}


def test_fields_keep_an_explicit_null_for_extra_and_name_a_wrong_type() -> None:
    fields = Fields({"a": None, "b": "x", "n": True}, "")
    assert fields.string("a") is None
    assert fields.string("b") == "x"
    assert fields.rest == {"a": None, "n": True}
    with pytest.raises(FormatError) as error:
        fields.integer("n")
    assert error.value.field == "n"


def test_a_union_has_exactly_one_known_member() -> None:
    assert union_member({"text": "hi"}, "content[0]", frozenset({"text"})) == ("text", "hi")
    with pytest.raises(FormatError):
        union_member({"text": "a", "image": {}}, "content[0]", None)
    with pytest.raises(FormatError) as error:
        union_member({"video": {}}, "content[0]", frozenset({"text"}))
    assert error.value.field == "content[0].video"


def _names(drift: Drift, **options: object) -> ToolNames:
    return ToolNames(
        drift,
        pattern=re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}"),
        refused=re.compile(r"[^A-Za-z0-9_]"),
        note="name rewritten",
        **options,  # type: ignore[arg-type]
    )


def test_tool_names_are_fitted_once_and_never_onto_a_name_already_sent() -> None:
    drift = Drift("test")
    names = _names(drift, start=re.compile(r"[A-Za-z_]"))
    assert names("3d render", "tools[0].name") == "_3d_render"
    assert names("3d render", "messages[1].name") == "_3d_render"  # the same each time
    taken = names("_3d_render", "tools[1].name")
    assert taken != "_3d_render" and re.fullmatch(r"_3d_render_[0-9a-f]{8}", taken)
    assert [w.field for w in drift.warnings] == [
        "tools[0].name",
        "messages[1].name",
        "tools[1].name",
    ]
    assert {w.category for w in drift.warnings} == {"id-rewritten"}


def test_a_tool_name_with_nothing_left_takes_the_empty_default() -> None:
    assert _names(Drift("test"), empty="tool")("", "tools[0].name") == "tool"


def test_umf_checked_turns_a_refused_value_into_a_format_error_naming_the_field() -> None:
    # Built by keyword, UMF checks nothing (the edges validate); validating does.
    with pytest.raises(FormatError) as error, umf_checked():
        Message.model_validate({"role": "nobody", "content": []})
    assert error.value.field == "role"


def test_a_render_context_numbers_defaults_per_kind() -> None:
    ctx = RenderContext.create(Namespace("test"), "Test", faithful=False)
    assert [ctx.number("document"), ctx.number("document"), ctx.number("image")] == [1, 2, 1]


def test_a_salted_id_is_the_first_fresh_one_and_the_same_every_time() -> None:
    def make(digest: str) -> str:
        return f"call_{digest[:4]}"

    first = salted_id("call_1", make, set())
    assert first == salted_id("call_1", make, set())  # deterministic
    second = salted_id("call_1", make, {first})
    assert second not in {first, "call_1"} and second.startswith("call_")


def test_suffixed_takes_the_first_free_suffix_and_records_it() -> None:
    used = {"f_0", "f_0_1"}
    assert suffixed("f_0", used) == "f_0_2"
    assert suffixed("g", used) == "g"
    assert used == {"f_0", "f_0_1", "f_0_2", "g"}


def test_clamp_parameter_warns_only_when_the_value_moves() -> None:
    drift = Drift("gemini")
    assert clamp_parameter(0.5, 0, 2, drift, "temperature", "why") == 0.5
    assert drift.warnings == []
    assert clamp_parameter(3, 0, 2, drift, "temperature", "Gemini takes temperature") == 2
    (warning,) = drift.warnings
    assert (warning.category, warning.field, warning.original_value, warning.transformed_value) == (
        "parameter-clamped",
        "parameters.temperature",
        3,
        2,
    )
    assert warning.message == "Gemini takes temperature"


@pytest.mark.parametrize(
    ("value", "low", "high", "expected"),
    [
        (0.0, 0, 1, 0.0),  # within range: the value itself, not the equal bound 0
        (-0.5, 0, 1, 0.0),  # a float stays a float
        (1, 0.01, 0.99, 0.99),  # an integer may become a float bound
        (0, 1, None, 1),  # no upper bound (Bedrock's maxTokens)
        (5000, 1, None, 5000),
    ],
)
def test_a_clamped_number_keeps_its_kind(
    value: float, low: float, high: float | None, expected: float
) -> None:
    clamped = clamp_parameter(value, low, high, Drift("bedrock-converse"), "temperature", "why")
    assert (clamped, type(clamped)) == (expected, type(expected))


def test_an_id_rule_matches_whole_ids_and_a_made_call_id_is_its_hash() -> None:
    valid = full_match(r"[a-z]{1,4}")
    assert valid("abcd")
    assert not valid("abcde")
    assert not valid("ab-c")
    assert call_id_from_hash("0123456789abcdef" * 4) == "call_0123456789abcdef01234567"
    drift = Drift("x")
    report_synthesized(drift, "no id; one was made up", "messages[1].id", "call_0")
    [note] = drift.warnings
    assert (note.category, note.severity, note.transformed_value) == (
        "id-synthesized",
        "info",
        "call_0",
    )

"""The mutation strategy's pools of key names, found in the format modules' source: if the
patterns stop matching, the mutation tests silently stop trying those names."""

from __future__ import annotations

from tests.providers.formats._mutations import internal_names, key_names, objects, rendered_names


def test_names_the_formats_keep_for_themselves_are_found() -> None:
    names = set(internal_names())
    assert {"unmapped_parts", "unmapped_items", "unmapped_tools", "unmapped_chunks"} <= names
    assert {"$shape", "$content", "$present", "$arguments"} <= names


def test_keys_the_renderers_write_are_found() -> None:
    assert {"tool_calls", "tool_call_id", "finish_reason", "functionCall"} <= set(rendered_names())


def test_objects_and_key_names_of_a_document() -> None:
    document = {"messages": [{"role": "user", "content": [{"type": "text"}]}], "n": 1}
    assert objects(document) == [(), ("messages", 0), ("messages", 0, "content", 0)]
    assert key_names(document) == {"messages", "role", "content", "type", "n"}

"""Check ChatGPT export conversations against the structure the exports have.

OpenAI publishes no schema or SDK type for the data export; these checks encode the
observed structure the reference (section 3.4) describes, so that what we write reads like
what ChatGPT writes (and what export viewers walk): a ``mapping`` of nodes keyed by their
``id`` whose ``parent`` / ``children`` agree, one root, a ``current_node`` in the mapping,
messages with an ``author.role``, a ``content`` with a ``content_type`` (``parts`` for text
types), a ``recipient``, and tool messages under an assistant message addressed to a tool.
"""

from __future__ import annotations

from typing import Any

ROLES = {"system", "user", "assistant", "tool"}


def check_chatgpt_conversation(entry: Any) -> None:
    """Raise ``AssertionError`` unless ``entry`` reads like a ChatGPT export conversation."""
    assert isinstance(entry, dict) and isinstance(entry["title"], str)
    mapping = entry["mapping"]
    assert isinstance(mapping, dict) and mapping
    roots = [key for key, node in mapping.items() if node["parent"] is None]
    assert len(roots) == 1, f"one root, not {roots}"
    assert entry["current_node"] in mapping
    for key, node in mapping.items():
        assert node["id"] == key
        if node["parent"] is not None:
            assert key in mapping[node["parent"]]["children"], (
                f"{key} not among its parent's children"
            )
        for child in node["children"]:
            assert mapping[child]["parent"] == key, f"{child} lists another parent"
        if node["message"] is not None:
            _check_message(node["message"], key, mapping)


def _check_message(message: dict[str, Any], key: str, mapping: dict[str, Any]) -> None:
    assert message["author"]["role"] in ROLES
    assert isinstance(message["recipient"], str)
    assert message["create_time"] is None or isinstance(message["create_time"], int | float)
    content = message["content"]
    assert isinstance(content["content_type"], str)
    if content["content_type"] in ("text", "multimodal_text"):
        assert all(isinstance(part, str | dict) for part in content["parts"])
    if message["author"]["role"] == "tool":
        assert _called_by_ancestor(key, mapping), f"tool message {key} answers no call"


def _called_by_ancestor(key: str, mapping: dict[str, Any]) -> bool:
    node = mapping[mapping[key]["parent"]] if mapping[key]["parent"] else None
    while node is not None and node["message"] is not None:
        message = node["message"]
        if message["author"]["role"] == "assistant":
            return bool(message["recipient"] != "all")
        node = mapping[node["parent"]] if node["parent"] else None
    return False

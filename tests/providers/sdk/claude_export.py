"""Check Claude.ai export conversations against the structure the exports have.

Anthropic publishes no schema or SDK type for the data export; these checks encode the
observed structure the reference (section 3.5) describes, so that what we write reads like
what Claude.ai writes: a ``uuid``, ``name`` and ``chat_messages`` whose ``sender`` is
``human`` or ``assistant``, ``text`` a string, ``content`` blocks of the known types with
their fields, ``attachments`` with ``file_name`` and ``extracted_content``, ``files`` with a
``file_name``, ``parent_message_uuid`` the root sentinel or an earlier message, and every
``tool_result`` answering an earlier ``tool_use``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

ROOT = "00000000-0000-4000-8000-000000000000"
BLOCK_FIELDS: dict[str, dict[str, type]] = {
    "text": {"text": str},
    "thinking": {"thinking": str},
    "tool_use": {"name": str, "input": dict},
    "tool_result": {"content": list},
}


def check_claude_conversation(entry: Any) -> None:
    """Raise ``AssertionError`` unless ``entry`` reads like a Claude.ai export conversation."""
    assert isinstance(entry, dict)
    assert isinstance(entry["uuid"], str) and isinstance(entry["name"], str)
    if "created_at" in entry:
        datetime.fromisoformat(entry["created_at"])
    seen: set[str] = set()
    calls: set[str] = set()
    for message in entry["chat_messages"]:
        assert isinstance(message["uuid"], str) and message["uuid"] not in seen
        assert message["sender"] in ("human", "assistant")
        assert isinstance(message["text"], str)
        parent = message.get("parent_message_uuid", ROOT)
        assert parent == ROOT or parent in seen, f"parent {parent} is not an earlier message"
        for block in message.get("content", []):  # older exports have only text
            _check_block(block, message["sender"], calls)
        for attachment in message["attachments"]:
            assert isinstance(attachment["file_name"], str)
            assert isinstance(attachment["extracted_content"], str)
        for upload in message["files"]:
            assert isinstance(upload["file_name"], str)
        seen.add(message["uuid"])


def _check_block(block: dict[str, Any], sender: str, calls: set[str]) -> None:
    kind = block["type"]
    for name, kind_type in BLOCK_FIELDS.get(kind, {}).items():
        assert isinstance(block[name], kind_type), f"{kind}.{name}"
    if kind in ("tool_use", "tool_result"):
        assert sender == "assistant", "Claude.ai runs its tools in the assistant message"
    if kind == "tool_use" and block.get("id") is not None:
        calls.add(block["id"])
    if kind == "tool_result" and block.get("tool_use_id") is not None:
        assert block["tool_use_id"] in calls, "a result answers an earlier call"

"""Claude.ai's structural rules: messages form a tree through ``parent_message_uuid``, the
first ones hanging from a root sentinel (:data:`~._constants.ROOT`), and a message's
flattened ``text`` is its text blocks joined. (Its tool results live in the assistant
message that made the call: see ``_render_foreign``.)"""

from __future__ import annotations

from typing import Any

from providers.formats._archive.values import join_texts
from providers.umf import Block, Message, TextBlock

from ._constants import FORMAT_ID, ROOT


def default_text(blocks: list[Block]) -> str:
    """The flattened ``text`` of a message: its text blocks joined (see
    :func:`~providers.formats._archive.values.join_texts`)."""
    return join_texts([b.text for b in blocks if isinstance(b, TextBlock)])


def link(message: Message, source: dict[str, Any], seen: set[str]) -> None:
    """The message's parent, when it names an earlier message; the root sentinel is no
    parent, and any other value (a later message, a null) is kept as the ``$parent``
    hint, a missing one as ``$parent_absent``."""
    own = message.extra.setdefault(FORMAT_ID, {})
    if "parent_message_uuid" not in source:
        own["$parent_absent"] = True
        return
    parent = source["parent_message_uuid"]
    if isinstance(parent, str) and parent in seen:
        message.parent_id = parent
    elif parent != ROOT:
        own["$parent"] = parent


def written_parent(message: Message) -> tuple[bool, Any]:
    """Whether a message read from this format names a parent, and which."""
    own = message.extra.get(FORMAT_ID, {})
    if message.parent_id is not None:
        return True, message.parent_id
    if "$parent" in own:
        return True, own["$parent"]
    return not own.get("$parent_absent"), ROOT

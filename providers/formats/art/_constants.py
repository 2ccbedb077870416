"""Names of the ``art`` format, in one place so tests and docs can cite them."""

from __future__ import annotations

from typing import Final

from providers.formats._kit.extra import Namespace
from providers.formats._message_lists.shapes import ListDialect

FORMAT_ID: Final = "art"
NS: Final = Namespace(FORMAT_ID)
LABEL: Final = "ART"
# ArtStandardMessageRole. Seed 004 names system, user, assistant, tool_request and
# tool_result; ART's own schema also accepts tool (a tool result, like tool_result).
ROLES: Final = ("system", "user", "assistant", "tool_request", "tool_result", "tool")
RESULT_ROLES: Final = ("tool_result", "tool")
# Roles whose content is null when they have no text: what the renderer writes by default.
NULL_CONTENT_ROLES: Final = ("assistant", "tool_request")
MESSAGE_KEYS: Final = frozenset({"role", "content", "name", "tool_call_id", "tool_calls"})
ART_ONLY_ROLES: Final = frozenset({"tool_request", "tool_result"})

DIALECT: Final = ListDialect(
    NS,
    LABEL,
    "not an ART payload: expected an ArtStandardPrompt (array of messages), one "
    "ArtStandardMessage, or a request and a response",
    holder="an ART prompt carries",
    metadata_note=(
        "ART messages have no ids, timestamps, models, finish reasons, usage or metadata; left out"
    ),
)

"""Names of the ``forge`` format and the marks of its text, in one place so tests and docs
can cite them."""

from __future__ import annotations

from typing import Final

from providers.formats._kit.extra import Namespace
from providers.formats._message_lists.shapes import ListDialect

FORMAT_ID: Final = "forge"
NS: Final = Namespace(FORMAT_ID)
LABEL: Final = "Forge"
ROLES: Final = ("system", "user", "assistant", "tool")
# A message's keys: the seed's, or as Go's encoding/json writes its untagged struct.
KEYS: Final = {"lower": ("role", "content"), "go": ("Role", "Content")}
TOOL_OPEN: Final = "<tool>"
TOOL_CLOSE: Final = "</tool>"
TOOL_PREFIX: Final = "Tool: "
ERROR_PREFIX: Final = "Error: "
# The name a tool message is written with when its result does not say which tool it is.
DEFAULT_TOOL_NAME: Final = "tool"

DIALECT: Final = ListDialect(
    NS,
    LABEL,
    "not a Forge payload: expected an array of messages, one message, or a request and a response",
    holder="Forge messages carry",
    metadata_note=(
        "Forge messages have no ids, timestamps, models, finish reasons, usage or metadata; "
        "left out"
    ),
    message_keys=("role", "Role"),
)

"""Names of the ``umf`` format (UMF itself as JSON), in one place so tests and docs can
cite them."""

from __future__ import annotations

from typing import Final

from providers._umf_walk import field_names
from providers.umf import Conversation, Message

FORMAT_ID: Final = "umf"
MESSAGE_KEYS: Final = frozenset(field_names(Message))
CONVERSATION_KEYS: Final = frozenset(field_names(Conversation))
# The hints that say what a document spelled that the canonical dump does not write.
SPELLED_HINTS: Final = ("$present", "$present_in", "$written")

# Message keys that only UMF documents use (seed 000's InternalMessage has ``metadata``).
UMF_ONLY_MESSAGE_KEYS: Final = frozenset(
    {
        "hidden",
        "metadata",
        "parent_id",
        "reasoning",
        "reasoning_details",
        "timestamp",
        "finish_reason",
        "provider_finish_reason",
        "usage",
        "extra",
    }
)

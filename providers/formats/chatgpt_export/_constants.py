"""The names and words of the ChatGPT data export."""

from __future__ import annotations

from providers.formats._archive.foreign import Words
from providers.formats._kit.extra import Namespace
from providers.umf import FinishReason

FORMAT_ID = "chatgpt-export"
NS = Namespace(FORMAT_ID)
WORDS = Words(FORMAT_ID, "ChatGPT", "a ChatGPT export has", "a ChatGPT export message")

ROLES = ("system", "user", "assistant", "tool")
# Content types ChatGPT keeps out of the person's sight (profile, instructions, memories).
HIDDEN_CONTENT = ("user_editable_context", "model_editable_context")
FINISH_REASONS: dict[str, FinishReason] = {
    "stop": "stop",
    "max_tokens": "length",
    "interrupted": "cancelled",
}
WIRE_FINISH = {"stop": "stop", "length": "max_tokens", "cancelled": "interrupted"}
NODE_KEYS = ("id", "message", "parent", "children")
# The placeholder node a conversation written from another format hangs from.
ROOT_ID = "client-created-root"

# Content types whose string fields are the text, in the order they are read.
TEXT_FIELDS = {
    "code": ("text",),
    "execution_output": ("text",),
    "tether_browsing_display": ("result",),
    "tether_quote": ("text",),
    "system_error": ("text",),
    "sonic_webpage": ("text",),
    "user_editable_context": ("user_profile", "user_instructions"),
    "model_editable_context": ("model_set_context",),
    "reasoning_recap": ("content",),
}
UNMAPPED_PARTS = "unmapped_parts"

"""The names and words of the Claude.ai data export."""

from __future__ import annotations

from providers.formats._archive.foreign import Words
from providers.formats._kit.extra import Namespace

FORMAT_ID = "claude-export"
NS = Namespace(FORMAT_ID)
WORDS = Words(FORMAT_ID, "Claude", "a Claude.ai export has", "a Claude.ai export message")

# The parent every first message of a conversation names.
ROOT = "00000000-0000-4000-8000-000000000000"
SENDERS = {"human": "user", "assistant": "assistant"}
SENDER_OF = {"user": "human", "assistant": "assistant"}
# Uploads: text extracted from them, and files whose bytes the export lacks.
UPLOADS = ("attachments", "files")
MESSAGE_KEYS = ("uuid", "sender", "text", "content", "created_at", "parent_message_uuid")
# The message (or tool result) field holding the blocks UMF has no block for.
UNMAPPED = "unmapped_blocks"
# How a knowledge result's URL ends its text.
KNOWLEDGE_SOURCE = "\n\nSource: "
# The name of a plain-text document written as an attachment without one.
DEFAULT_FILE_NAME = "document.txt"

"""Names of the ``openai-finetune`` format, in one place for docs and tests."""

from __future__ import annotations

from typing import Final

from providers.formats import openai_chat

FORMAT_ID: Final = "openai-finetune"
# Lines are read and written by the ``openai-chat`` format, under its namespace.
CHAT: Final = openai_chat.FORMAT_ID
# What a supervised line holds besides its messages.
LINE_KEYS: Final = ("messages", "tools", "parallel_tool_calls")
# The hints this format leaves on a conversation read from a line.
LINE_HINTS: Final = ("$line", "$line_end", "$shape")

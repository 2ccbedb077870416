"""The names and words of ShareGPT (with LLaMA-Factory's extensions)."""

from __future__ import annotations

from providers.formats._archive.foreign import Words
from providers.formats._kit.extra import Namespace

FORMAT_ID = "sharegpt"
NS = Namespace(FORMAT_ID)
WORDS = Words(FORMAT_ID, "ShareGPT", "a ShareGPT entry has", "a ShareGPT turn")

ROLE_OF = {
    "human": "user",
    "user": "user",
    "gpt": "assistant",
    "assistant": "assistant",
    "chatgpt": "assistant",
    "bing": "assistant",
    "bard": "assistant",
    "model": "assistant",
    "system": "system",
    "function_call": "assistant",
    "observation": "tool",
    "tool": "tool",
}
# The turn names a UMF role is written as.
CANONICAL = {"user": "human", "assistant": "gpt", "tool": "observation"}
# The side of the conversation each turn is on (LLaMA-Factory wants them alternating).
SIDE = {"human": "user", "observation": "user", "gpt": "assistant", "function_call": "assistant"}
# The media lists whose items ``<image>`` / ``<audio>`` placeholders stand for.
MEDIA = {"images": "<image>", "audios": "<audio>"}
ENTRY_KEYS = ("conversations", "system", "tools", *MEDIA)

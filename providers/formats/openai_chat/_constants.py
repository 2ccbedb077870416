"""The names and defaults of OpenAI Chat Completions as this format writes them."""

from __future__ import annotations

from providers.formats._kit.extra import Namespace
from providers.formats._kit.ids import full_match

FORMAT_ID = "openai-chat"
# This format's corner of a UMF value's ``extra`` (verbatim fields and ``$`` hints).
NAMESPACE = Namespace(FORMAT_ID)
LABEL = "OpenAI Chat"

# Filled in when a conversation from another format names no model (OpenAI requires one).
DEFAULT_MODEL = "gpt-4o-mini"

ROLES = ("system", "developer", "user", "assistant", "tool", "function")
PART_TYPES = ("text", "image_url", "input_audio", "file", "refusal")
FLOAT_PARAMETERS = ("temperature", "top_p", "frequency_penalty", "presence_penalty")

# Audio formats by media type, for sources that spell the type the IANA way.
_AUDIO_FORMATS = {"audio/mpeg": "mp3", "audio/x-wav": "wav", "audio/wave": "wav"}

# How no content is spelled by default, by whether the message makes tool calls (the
# family's content_shape does the rest): null beside calls, else an empty string.
EMPTY_CONTENT = {True: "null", False: "string"}

# OpenAI rejects tool-call ids longer than 40 characters; keep to the safe alphabet too.
valid_tool_call_id = full_match(r"[A-Za-z0-9_-]{1,40}")


def wire_audio_format(media_type: str | None) -> str | None:
    """The ``input_audio.format`` for a media type (``audio/mpeg`` -> ``mp3``)."""
    if media_type is None or not media_type.startswith("audio/"):
        return None
    return _AUDIO_FORMATS.get(media_type, media_type.removeprefix("audio/"))


# UMF finish reasons as a response spells them.
WIRE_FINISH_REASONS = {
    "stop": "stop",
    "length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
}

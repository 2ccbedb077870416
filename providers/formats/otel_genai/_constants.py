"""The names and words of the OpenTelemetry GenAI semantic conventions' messages."""

from __future__ import annotations

from providers.formats._archive.foreign import Words
from providers.formats._kit.extra import Namespace
from providers.umf import FinishReason

FORMAT_ID = "otel-genai"
NS = Namespace(FORMAT_ID)
WORDS = Words(FORMAT_ID, "GenAI", "GenAI attributes have", "a GenAI message")

SYSTEM = "gen_ai.system_instructions"
INPUT = "gen_ai.input.messages"
OUTPUT = "gen_ai.output.messages"
TOOLS = "gen_ai.tool.definitions"
# The attributes holding JSON values (given as JSON strings on spans).
ENCODED = (SYSTEM, INPUT, OUTPUT, TOOLS)
FLOAT_PARAMETERS = {
    "gen_ai.request.temperature": "temperature",
    "gen_ai.request.top_p": "top_p",
    "gen_ai.request.frequency_penalty": "frequency_penalty",
    "gen_ai.request.presence_penalty": "presence_penalty",
}
INT_PARAMETERS = {
    "gen_ai.request.max_tokens": "max_tokens",
    "gen_ai.request.seed": "seed",
    "gen_ai.request.top_k": "top_k",
}
USAGE = {
    "gen_ai.usage.input_tokens": "prompt_tokens",
    "gen_ai.usage.output_tokens": "completion_tokens",
    "gen_ai.usage.cache_read.input_tokens": "cached_tokens",
    "gen_ai.usage.cache_creation.input_tokens": "cache_write_tokens",
    "gen_ai.usage.reasoning.output_tokens": "reasoning_tokens",
}
ROLES = ("system", "developer", "user", "assistant", "tool")
FINISH_REASONS: dict[str, FinishReason] = {
    "stop": "stop",
    "length": "length",
    "content_filter": "content_filter",
    "tool_call": "tool_calls",
    "error": "error",
}
WIRE_FINISH = {"tool_calls": "tool_call", "cancelled": "error"}
# The message field holding the parts UMF has no block for, with their places.
UNMAPPED = "unmapped_parts"
PART_TYPES = frozenset(
    {"text", "reasoning", "tool_call", "tool_call_response", "blob", "uri", "file"}
    | {"server_tool_call", "server_tool_call_response"}
)
# The property holding a media part's value, and the UMF source kind it is.
MEDIA_PARTS = {"blob": "content", "uri": "uri", "file": "file_id"}
SOURCE_KIND = {"blob": "base64", "uri": "url", "file": "file"}
DOCUMENT_TYPES = ("application/pdf", "text/")

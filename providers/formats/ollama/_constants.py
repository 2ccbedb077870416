"""Names, defaults and tables of the ``ollama`` format, in one place for docs and tests."""

from __future__ import annotations

from typing import Final

from providers.formats._kit.extra import Namespace
from providers.umf import FinishReason

FORMAT_ID: Final = "ollama"
LABEL: Final = "Ollama"
NS: Final = Namespace(FORMAT_ID)

# Filled in (with a ``parameter-defaulted`` warning) when a conversation from another format
# names no model: the server refuses a request without one.
DEFAULT_MODEL: Final = "llama3.2"

ROLES: Final = ("system", "user", "assistant", "tool")

# ``done_reason`` -> UMF finish reason (reference section 4). ``load`` and ``unload`` have
# no UMF name and live only in ``provider_finish_reason``; a ``stop`` that ends on tool
# calls is UMF ``tool_calls``.
FINISH_REASONS: Final[dict[str, FinishReason]] = {"stop": "stop", "length": "length"}
DONE_REASONS: Final[dict[str, str]] = {
    "stop": "stop",
    "tool_calls": "stop",
    "length": "length",
}

# The response's count and timing fields: UMF usage keeps them all in ``raw``.
METRICS: Final = (
    "total_duration",
    "load_duration",
    "prompt_eval_count",
    "prompt_eval_duration",
    "eval_count",
    "eval_duration",
)

# The options UMF has names for, by type (``num_predict`` is ``max_tokens``).
FLOAT_OPTIONS: Final = ("temperature", "top_p", "frequency_penalty", "presence_penalty")
INT_OPTIONS: Final = ("top_k", "seed")

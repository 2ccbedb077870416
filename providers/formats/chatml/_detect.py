"""Whether a payload is ChatML text."""

from __future__ import annotations

from providers.formats.chatml._constants import START
from providers.umf import JSON


def detect(payload: JSON) -> int:
    """2 for a string whose first turn opens with ``<|im_start|>`` (after whitespace): no
    other format is text that starts so; 0 for anything else."""
    return 2 if isinstance(payload, str) and payload.lstrip().startswith(START) else 0

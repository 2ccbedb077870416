"""How sure ``openai-finetune`` is that a payload is its own: 2 when a text's first lines
are all fine-tuning examples (their messages ``openai-chat``'s), else 0."""

from __future__ import annotations

import itertools

import orjson

from providers.formats import openai_chat
from providers.umf import JSON

from ._parse import lines as split_lines


def detect(payload: JSON) -> int:
    """2 when the text's first lines are all fine-tuning examples, else 0."""
    if not isinstance(payload, str) or not payload.lstrip().startswith("{"):
        return 0
    first = list(itertools.islice((line for line, _ in split_lines(payload) if line.strip()), 20))
    for line in first:
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            return 0
        body = value.get("input") if isinstance(value, dict) and "input" in value else value
        if not isinstance(body, dict) or not openai_chat.detect(body.get("messages")):
            return 0
    return 2 if first else 0

"""How sure ``gemini`` is that a payload is its own (see :class:`Format`).

2 for marks no other format shares: a ``contents`` array of Content objects, a response
with ``candidates`` (or ``promptFeedback``), a bare list of Contents (``role`` user/model,
``parts`` without ``type`` tags). 0 otherwise: Gemini has no "could be" shape.
"""

from __future__ import annotations

from typing import Any

from providers.formats.gemini._constants import DATA_FIELDS
from providers.umf import JSON

_PART_KEYS = frozenset(DATA_FIELDS) | {"thought", "thoughtSignature"}


def detect(payload: JSON) -> int:
    """0 (not mine) or 2 (surely Gemini)."""
    if isinstance(payload, list):
        return 2 if _is_contents(payload) and payload else 0
    if not isinstance(payload, dict):
        return 0
    if "request" in payload and "response" in payload:
        request, response = payload["request"], payload["response"]
        return 2 if detect(request) and isinstance(response, dict) and _is_response(response) else 0
    if "contents" in payload:
        return 2 if _is_contents(payload["contents"]) else 0
    return 2 if _is_response(payload) else 0


def _is_response(payload: dict[str, Any]) -> bool:
    candidates = payload.get("candidates")
    if isinstance(candidates, list) and all(isinstance(c, dict) for c in candidates):
        contents = [c.get("content") or {} for c in candidates]
        # A blocked candidate may hold a content with no parts.
        return all(isinstance(c, dict) and _is_content({"parts": [], **c}) for c in contents)
    return candidates is None and isinstance(payload.get("promptFeedback"), dict)


def _is_contents(contents: JSON) -> bool:
    return isinstance(contents, list) and all(_is_content(content) for content in contents)


def _is_content(content: JSON) -> bool:
    """A Content: ``parts`` (untagged objects with a Part field) and a user/model role."""
    if not isinstance(content, dict) or content.get("role", "user") not in ("user", "model"):
        return False
    parts = content.get("parts")
    return isinstance(parts, list) and all(
        isinstance(part, dict) and "type" not in part and (not part or _PART_KEYS & part.keys())
        for part in parts
    )

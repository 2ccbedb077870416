"""How the chat-completions formats tell their payloads apart from each other's: the same
four shapes (:mod:`.shape`), each message scored by the format (0 not mine, 1 fits, 2 a
mark only it has), a payload as good as its worst message and as sure as its surest.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from providers.formats._kit.detect import score_content, score_messages
from providers.umf import JSON


def _any_request(_: dict[str, Any]) -> bool:
    return True


@dataclass(frozen=True)
class Scorers:
    """One format's scores: of a message, of a response (0/1/2), and whether a request body
    may be its own at all. ``response_key`` is the field only a response has;
    ``response_first`` reads a payload with it as a response even beside ``messages``;
    ``sure_exchange`` scores an exchange that fits 2 (its response is a mark)."""

    message: Callable[[JSON], int]
    response: Callable[[dict[str, Any]], int]
    response_key: str
    response_first: bool = True
    sure_exchange: bool = False
    request: Callable[[dict[str, Any]], bool] = _any_request


def fit_shapes(payload: JSON, scorers: Scorers) -> int:
    """0, 1 or 2 for a payload of any of the four shapes."""
    if isinstance(payload, list):
        return score_messages(payload, scorers.message)
    if not isinstance(payload, dict):
        return 0
    if "request" in payload and "response" in payload:
        request, response = payload["request"], payload["response"]
        if not isinstance(request, dict) or not isinstance(response, dict):
            return 0
        scores = (fit_shapes(request, scorers), scorers.response(response))
        if min(scores) == 0:
            return 0
        return 2 if scorers.sure_exchange else max(scores)
    if scorers.response_key in payload and (scorers.response_first or "messages" not in payload):
        return scorers.response(payload)
    if not scorers.request(payload):
        return 0
    return score_messages(payload.get("messages"), scorers.message)


def score_message(
    message: JSON,
    roles: Collection[str],
    foreign: frozenset[str] | set[str],
    score_part: Callable[[Any, str], int],
    arguments: type | tuple[type, ...],
) -> int:
    """A message's score: 0 when its role is not one of ``roles``, it has one of the
    ``foreign`` fields (other chat formats' message fields), content that is neither a
    string, null nor a list of parts ``score_part`` (given the role) accepts, or tool calls
    whose arguments are not of the ``arguments`` types; else its surest part's (1 without)."""
    if not isinstance(message, dict) or message.get("role") not in roles:
        return 0
    if not foreign.isdisjoint(message.keys()):
        return 0
    content, role = message.get("content"), message["role"]
    score = 1 if content is None else score_content(content, lambda part: score_part(part, role))
    return score if score and calls_fit(message.get("tool_calls"), arguments) else 0


def calls_fit(calls: JSON, arguments: type | tuple[type, ...], *, with_id: bool = True) -> bool:
    """Whether ``tool_calls`` (absent, or a list) are calls with a function whose
    ``arguments`` are of the ``arguments`` type(s) (and an id, ``with_id``)."""
    if calls is None:
        return True
    if not isinstance(calls, list):
        return False
    return all(
        isinstance(call, dict)
        and (not with_id or isinstance(call.get("id"), str))
        and isinstance(call.get("function"), dict)
        and isinstance(call["function"].get("arguments"), arguments)
        for call in calls
    )

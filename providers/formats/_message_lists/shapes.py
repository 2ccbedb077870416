"""The payload shapes of a seed message list, both ways, and how sure ``detect`` is.

Shapes (the conversation hint ``$shape``): ``messages``, an array of messages;
``message``, one message; ``exchange``, ``{"request": [...], "response": <assistant
message>}``, other envelope fields kept verbatim (the ``$exchange`` hint).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from providers.formats._kit.detect import score_messages
from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import require_list, require_mapping, umf_checked, unknown_fields
from providers.formats._kit.paths import at, item
from providers.formats.base import FormatError, ParseResult
from providers.umf import JSON, Conversation, DriftWarning, Message

SHAPES = ("messages", "message", "exchange")
ReadMessage = Callable[[JSON, str], Message]
T = TypeVar("T")
Wire = dict[str, Any]


@dataclass(frozen=True)
class ListDialect:
    """One seed list's words. Reading: ``refusal`` says what a payload of no shape should
    have been, ``message_keys`` the keys that mark one message, ``not_an_answer`` the
    error for an exchange whose response is not the assistant's. Writing (see
    :func:`~.render.render_list`): ``label`` names the format in warnings, ``holder`` says
    what carries no request ("Forge messages carry"), ``metadata_note`` what the messages
    hold no place for."""

    ns: Namespace
    label: str
    refusal: str
    holder: str = ""
    metadata_note: str = ""
    message_keys: Collection[str] = ("role",)
    not_an_answer: str = "a response is an assistant message"


def parse_result(
    read: Callable[[], tuple[Conversation, str]],
    format_id: str,
    warnings: Sequence[DriftWarning] = (),
) -> list[ParseResult]:
    """The one conversation ``read`` gives, hinted with its shape (``$shape``); a value
    UMF refuses is a :class:`FormatError` naming its field."""
    with umf_checked():
        conversation, shape = read()
    conversation.extra.setdefault(format_id, {})["$shape"] = shape
    return [ParseResult(conversation, list(warnings))]


def read_list(raw: JSON, path: str, read: Callable[[JSON, str], T]) -> list[T]:
    """What ``read`` makes of each entry of the array at ``path`` (the payload itself when
    ``path`` is empty): its messages, blocks, tools..."""
    entries = require_list(raw, path or "payload")
    return [read(entry, item(path, index)) for index, entry in enumerate(entries)]


def read_role(source: dict[str, Any], path: str, roles: Sequence[str], key: str = "role") -> str:
    """The message's role, one of ``roles``; :class:`FormatError` naming it otherwise."""
    role = source.get(key)
    if not isinstance(role, str) or role not in roles:
        raise FormatError(f"role must be one of {', '.join(roles)}", field=at(path, key))
    return role


def read_payload(
    payload: JSON,
    read: ReadMessage,
    shapes: ListDialect,
    answer_fields: Callable[[dict[str, Any], Conversation], dict[str, Any]] | None = None,
) -> tuple[Conversation, str]:
    """The conversation a payload holds, and its shape. ``answer_fields`` reads the
    exchange's fields beside its response into the conversation and gives back the
    envelope's others (by default every field but the request and the response)."""
    if isinstance(payload, list):
        return Conversation(messages=read_list(payload, "", read)), "messages"
    body = require_mapping(payload, "payload")
    if "request" in body or "response" in body:
        if "response" not in body:
            raise FormatError("an exchange needs a response", field="response")
        conversation = Conversation(messages=read_list(body.get("request"), "request", read))
        answer = read(body["response"], "response")
        if answer.role != "assistant":
            raise FormatError(shapes.not_an_answer, field="response.role")
        conversation.messages.append(answer)
        if answer_fields is None:
            envelope = unknown_fields(body, ("request", "response"), path="")
        else:
            envelope = answer_fields(body, conversation)
        if envelope:
            conversation.extra = shapes.ns.extra({}, exchange=envelope)
        return conversation, "exchange"
    if any(key in body for key in shapes.message_keys):
        return Conversation(messages=[read(body, "")]), "message"
    raise FormatError(shapes.refusal, field="role")


def shaped_payload(
    conversation: Conversation,
    shape: str | None,
    thread: list[tuple[int, Message]],
    groups: list[list[Wire]],
    ns: Namespace,
    answer_fields: Callable[[Message], dict[str, Any]] | None = None,
) -> JSON:
    """The payload in the shape it was read in: ``groups`` holds the wire messages each
    UMF message of ``thread`` became. An exchange stays one while the thread ends with an
    assistant message written as one; ``answer_fields`` gives what sits beside the
    response."""
    flat = [wire for group in groups for wire in group]
    if shape == "message" and len(flat) == 1:
        return flat[0]
    if (
        shape == "exchange"
        and thread
        and thread[-1][1].role == "assistant"
        and len(groups[-1]) == 1
    ):
        return {
            **ns.hint(conversation.extra, "exchange", {}),
            "request": flat[:-1],
            "response": groups[-1][0],
            **(answer_fields(thread[-1][1]) if answer_fields is not None else {}),
        }
    return flat


ScoreMessage = Callable[[JSON], int]


def score_payload(payload: JSON, score_message: ScoreMessage) -> int:
    """``detect`` for a message list, one message or an exchange: 0 when any message
    does not fit, else the highest score among them (2: a mark only this format has)."""
    if isinstance(payload, list):
        return score_messages(payload, score_message)
    if not isinstance(payload, dict):
        return 0
    if "request" in payload or "response" in payload:
        scores = (
            score_messages(payload.get("request"), score_message),
            score_message(payload.get("response")),
        )
        return 0 if min(scores) == 0 else max(scores)
    return score_message(payload)


def json_text(value: JSON) -> str:
    """A structured value's compact JSON text, as a list keeps it in a string (stdlib json,
    so that integers of any size survive)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

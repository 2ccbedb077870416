"""Conversations -> JSON Lines: a conversation read from a line is that line again, byte
for byte, when it is unchanged; any other becomes one supervised line, fitted to what a
line holds (:mod:`._rules`), written by ``openai-chat``'s request renderer (whose warnings
are kept, re-tagged as this format's), and the request fields a line does not have taken
off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from providers.formats import openai_chat
from providers.formats._kit.extra import hint
from providers.formats.base import Drift, Rendered
from providers.umf import JSON, Conversation

from ._constants import CHAT, FORMAT_ID, LINE_HINTS, LINE_KEYS
from ._parse import moved
from ._rules import fit


def render(conversation: Conversation) -> Rendered:
    """The conversation as one line of JSONL (with its line ending): its own line, byte
    for byte, when it was read from one and is unchanged; else a supervised example."""
    line = hint(conversation.extra, FORMAT_ID, "line")
    if not isinstance(line, str):
        return render_line(conversation)
    value = _faithful_value(conversation)
    try:
        same = orjson.loads(line) == value
    except orjson.JSONDecodeError:
        same = False
    text = line if same else orjson.dumps(value).decode()
    return Rendered(text + str(hint(conversation.extra, FORMAT_ID, "line_end", "")))


def _faithful_value(conversation: Conversation) -> JSON:
    chat = moved(conversation, FORMAT_ID, CHAT)
    own = chat.extra.get(CHAT, {})
    shape = own.get("$shape")
    # On a supervised line, "preference" is an unknown field of the line like any other.
    preference = own.pop("preference", None) if shape == "preference" else None
    for key in LINE_HINTS:
        own.pop(key, None)
    if shape != "preference":
        return _chat_render(chat, "request")
    outputs = [m for m in chat.messages if m.extra.get(CHAT, {}).get("$output") == "preferred"]
    inputs = [m for m in chat.messages if all(m is not o for o in outputs)]
    body: dict[str, Any] = {"input": _chat_render(chat.model_copy(update={"messages": inputs}))}
    if own.get("$preferred") != "absent" or outputs:
        answer = Conversation(messages=outputs, extra={CHAT: {"$shape": "messages"}})
        body["preferred_output"] = _chat_render(answer, "messages")
    own.pop("$preferred", None)
    return {**body, **(preference or {})}


def _chat_render(conversation: Conversation, shape: str = "request") -> JSON:
    conversation.extra.setdefault(CHAT, {})["$shape"] = shape
    return openai_chat.render(conversation).payload


def render_many(conversations: Sequence[Conversation]) -> Rendered:
    """One JSONL text holding a line per conversation (a file of one is :func:`render`)."""
    if len(conversations) == 1:
        return render(conversations[0])
    texts, warnings = [], []
    for number, conversation in enumerate(conversations, start=1):
        rendered = render(conversation)
        text = str(rendered.payload)
        last = number == len(conversations)
        texts.append(text if last or text.endswith("\n") else text + "\n")
        warnings.extend(rendered.warnings)
    return Rendered("".join(texts), warnings)


def render_line(conversation: Conversation) -> Rendered:
    """One supervised line (with its newline) and the warnings for what it lost."""
    drift = Drift(FORMAT_ID)
    fitted = fit(conversation, drift)
    rendered = openai_chat.render_request(fitted)
    body: dict[str, Any] = dict(rendered.payload)
    body.pop("model", None)  # the fitted conversation has none: it was filled in
    for key in [key for key in body if key not in LINE_KEYS]:
        drift.add(
            "parameter-unsupported",
            f"a fine-tuning line has no {key}",
            field=f"extra.{CHAT}.{key}",
            original=body.pop(key),
        )
    body = {key: body[key] for key in LINE_KEYS if key in body}
    warnings = [
        warning.model_copy(update={"source": FORMAT_ID})
        for warning in rendered.warnings
        if not (warning.category == "parameter-defaulted" and warning.field == "parameters.model")
    ]
    text = orjson.dumps(body).decode() + "\n"
    return Rendered(text, drift.warnings + warnings)

"""Gemini ``Content`` and ``Part`` objects -> UMF messages and blocks.

A Content is one message: role ``user`` -> user, ``model`` -> assistant. A part has one
data field and optional modifiers (a part with a second ``text``, ``inlineData`` or
``fileData`` gives a block for each, the later ones hinted ``$joined``, with a warning).
What each becomes:

* ``text`` -> ``text``; with ``thought: true`` -> ``thinking`` (signature: its
  ``thoughtSignature``); an empty text part or a bare part that only carries a
  ``thoughtSignature`` -> an empty ``thinking`` block holding the signature.
* ``inlineData`` / ``fileData`` -> ``image``, ``audio`` or ``document`` by MIME type; Files
  API and Cloud Storage URIs become ``file`` sources (no one else can open them), other URIs
  ``url`` sources.
* ``functionCall`` -> ``tool_use``; ``functionResponse`` -> ``tool_result`` (see
  ``_results`` for its text). Gemini often sends no ids: the state below makes up
  deterministic ones and pairs results with calls by name and order (``id-synthesized``).
* anything else (``executableCode``, ``codeExecutionResult``, server tool parts, parts of
  the future) -> a ``text`` block that shows it, with the part kept verbatim in the hint
  ``$part``: it comes back as it was here, and other formats carry what it said.

Modifiers (``thoughtSignature`` on a text or call part, ``videoMetadata``...) and unknown
fields stay in the block's ``extra["gemini"]`` at the part level; unknown fields inside the
data object stay under its name (``{"functionCall": {"willContinue": true}}``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from providers.formats._kit.extra import extra_of
from providers.formats._kit.fields import Fields, require_list, require_mapping
from providers.formats._kit.ids import report_synthesized, suffixed
from providers.formats.base import Drift, FormatError
from providers.formats.gemini._constants import (
    DATA_FIELDS,
    FORMAT_ID,
    GEMINI_FILE_PREFIXES,
    SYNTHESIZED_CALL_ID,
    SYNTHESIZED_RESULT_ID,
)
from providers.formats.gemini._parse_results import compact_json, response_object, result_text
from providers.umf import (
    JSON,
    AudioBlock,
    Block,
    DocumentBlock,
    ImageBlock,
    MediaSource,
    Message,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)

_ROLES: dict[str, Role] = {"user": "user", "model": "assistant"}


@dataclass
class ParseState:
    """What reading one payload remembers across parts: the calls not answered yet (by
    function name, in order) and every id in use, so that made-up ids never collide."""

    drift: Drift
    open_calls: dict[str, list[str]] = field(default_factory=dict)
    used_ids: set[str] = field(default_factory=set)

    def call_id(self, given: str | None, name: str, path: str, label: tuple[str, int]) -> str:
        """The id of a call: its own, or a new one (reported)."""
        call_id = given if given is not None else self._new_id(SYNTHESIZED_CALL_ID, label)
        if given is None:
            why = "Gemini sent this function call without an id; one was made up"
            report_synthesized(self.drift, why, path, call_id)
        self.used_ids.add(call_id)
        self.open_calls.setdefault(name, []).append(call_id)
        return call_id

    def result_id(self, given: str | None, name: str, path: str, label: tuple[str, int]) -> str:
        """The call a result answers: its own id, else the oldest open call of that name,
        else a new id (reported)."""
        waiting = self.open_calls.get(name, [])
        if given is not None:
            if given in waiting:
                waiting.remove(given)
            return given
        if waiting:
            call_id = waiting.pop(0)
            why = "Gemini sent this function response without an id; paired by name and order"
        else:
            call_id = self._new_id(SYNTHESIZED_RESULT_ID, label)
            why = "this function response answers no earlier call; an id was made up"
        report_synthesized(self.drift, why, path, call_id)
        return call_id

    def _new_id(self, template: str, label: tuple[str, int]) -> str:
        return suffixed(template.format(content=label[0], part=label[1]), self.used_ids)


def parse_contents(raw: JSON, path: str, state: ParseState) -> list[Message]:
    """A ``contents`` array, one message per Content."""
    if not isinstance(raw, list):
        raise FormatError("contents must be an array", field=path or "payload")
    return [
        parse_content(content, f"{path}[{index}]", str(index), state)
        for index, content in enumerate(raw)
    ]


def parse_content(
    raw: JSON, path: str, label: str, state: ParseState, default_role: Role = "user"
) -> Message:
    """One Content: role ``user`` or ``model`` (absent: ``default_role``, hint ``$role``)."""
    fields = Fields(raw, path)
    hints: dict[str, Any] = {}
    if "role" not in fields.rest:
        hints["$role"] = "absent"
    role = fields.string("role")
    if role is not None and role not in _ROLES:
        raise FormatError(f"unknown role {role!r}; expected user or model", field=fields.at("role"))
    if "parts" not in fields.rest:
        hints["$parts"] = "absent"
    raw_parts = fields.take("parts")
    blocks = [] if raw_parts is None else parse_parts(raw_parts, fields.at("parts"), label, state)
    umf_role = _ROLES[role] if role is not None else default_role
    return Message(
        role=umf_role, content=blocks, extra=extra_of(FORMAT_ID, {**fields.rest, **hints})
    )


def parse_parts(raw: JSON, path: str, content: str, state: ParseState) -> list[Block]:
    """The blocks of a Content's ``parts``; ``content`` labels the Content in made-up ids."""
    parts = require_list(raw, path)
    blocks: list[Block] = []
    for index, part in enumerate(parts):
        blocks += _part_blocks(part, f"{path}[{index}]", (content, index), state)
    return blocks


# Data fields that, beside another one in the same part, become blocks of their own.
_SEPARABLE = ("text", "inlineData", "fileData")
# The data field that makes a part's block, in the order parse_part looks for them.
_PRIMARY = ("functionCall", "functionResponse", "inlineData", "fileData", "text")


def _part_blocks(raw: JSON, path: str, label: tuple[str, int], state: ParseState) -> list[Block]:
    """A part's block, then one block (hint ``$joined``) for each further data field in it:
    the API takes one data field per part, but what a second one holds is content."""
    present = [key for key in _PRIMARY if isinstance(raw, dict) and raw.get(key) is not None]
    joined = [key for key in present[1:] if key in _SEPARABLE]
    if not joined:
        return [parse_part(raw, path, label, state)]
    state.drift.add(
        "content-type-unsupported",
        f"a part holds {len(joined) + 1} data fields ({', '.join(present[:1] + joined)}), "
        "where the API takes one; read as one block each",
        field=path,
        original=present[:1] + joined,
    )
    own = {key: value for key, value in raw.items() if key not in joined}
    blocks = [parse_part(own, path, label, state)]
    for key in joined:
        block = parse_part({key: raw[key]}, path, label, state)
        block.extra.setdefault(FORMAT_ID, {})["$joined"] = True
        blocks.append(block)
    return blocks


def parse_part(raw: JSON, path: str, label: tuple[str, int], state: ParseState) -> Block:
    """One part as a UMF block (see the module docstring)."""
    fields = Fields(raw, path)
    present = {key for key, value in fields.rest.items() if value is not None}
    if "functionCall" in present:
        return _function_call(fields, label, state)
    if "functionResponse" in present:
        return _function_response(fields, label, state)
    if "inlineData" in present:
        return _inline_data(fields, "inlineData")
    if "fileData" in present:
        return _file_data(fields, "fileData")
    signature = fields.rest.get("thoughtSignature")
    if "text" in present:
        text = fields.string("text") or ""
        if fields.rest.get("thought") is True or (text == "" and isinstance(signature, str)):
            return _thinking(fields, text, {})
        return TextBlock(text=text, extra=_extra(fields))
    if isinstance(signature, str) and not present & set(DATA_FIELDS):
        return _thinking(fields, "", {"$text": "absent"})
    return _opaque(require_mapping(raw, path))


def _thinking(fields: Fields, text: str, hints: dict[str, Any]) -> ThinkingBlock:
    """A thought summary, or a signature on its own (``$thought: absent`` when the part had
    no ``thought`` flag; an explicit ``false`` stays in extra)."""
    if fields.rest.get("thought") is True:
        fields.take("thought")
    elif "thought" not in fields.rest:
        hints["$thought"] = "absent"
    signature = fields.string("thoughtSignature")
    return ThinkingBlock(
        text=text, signature=signature, provider=FORMAT_ID, extra=_extra(fields, **hints)
    )


def _inline_data(fields: Fields, key: str) -> Block:
    blob = Fields(fields.mapping(key, required=True), fields.at(key))
    media_type = blob.string("mimeType", required=True)
    data = blob.string("data", required=True)
    source = MediaSource(type="base64", media_type=media_type, data=data)
    return _media(media_type, source, _extra(fields, nested={key: blob.rest}))


def _file_data(fields: Fields, key: str) -> Block:
    file = Fields(fields.mapping(key, required=True), fields.at(key))
    uri = file.string("fileUri", required=True) or ""
    media_type = file.string("mimeType")
    source = (
        MediaSource(type="file", file_id=uri, media_type=media_type)
        if uri.startswith(GEMINI_FILE_PREFIXES)
        else MediaSource(type="url", url=uri, media_type=media_type)
    )
    return _media(media_type, source, _extra(fields, nested={key: file.rest}))


def _media(media_type: str | None, source: MediaSource, extra: dict[str, Any]) -> Block:
    """An image, an audio clip, or anything else (PDF, text, video) as a document."""
    kind = (media_type or "").split("/", 1)[0]
    if kind == "image":
        return ImageBlock(source=source, extra=extra)
    if kind == "audio":
        return AudioBlock(source=source, extra=extra)
    return DocumentBlock(source=source, extra=extra)


def _function_call(fields: Fields, label: tuple[str, int], state: ParseState) -> ToolUseBlock:
    path = fields.at("functionCall")
    call = Fields(fields.mapping("functionCall", required=True), path)
    name = call.string("name", required=True) or ""
    hints: dict[str, Any] = {} if "args" in call.rest else {"$args": "absent"}
    arguments = call.mapping("args") or {}
    given = call.string("id")
    if given is None:
        hints["$id"] = "synthesized"
    call_id = state.call_id(given, name, path, label)
    extra = _extra(fields, nested={"functionCall": call.rest}, **hints)
    return ToolUseBlock(id=call_id, name=name, input=arguments, extra=extra)


def _function_response(
    fields: Fields, label: tuple[str, int], state: ParseState
) -> ToolResultBlock:
    path = fields.at("functionResponse")
    result = Fields(fields.mapping("functionResponse", required=True), path)
    name = result.string("name", required=True) or ""
    response = result.mapping("response", required=True) or {}
    given = result.string("id")
    media = result.array("parts")
    text, is_error = result_text(response)
    hints: dict[str, Any] = {} if given is not None else {"$id": "synthesized"}
    if response_object(text, is_error)[0] != response:
        hints["$response"] = response
    content: str | list[Block] = text
    if media is not None:
        content = [TextBlock(text=text), *_response_parts(media, result.at("parts"))]
    return ToolResultBlock(
        tool_use_id=state.result_id(given, name, path, label),
        name=name,
        content=content,
        is_error=is_error,
        extra=_extra(fields, nested={"functionResponse": result.rest}, **hints),
    )


def _response_parts(parts: list[Any], path: str) -> list[Block]:
    """``functionResponse.parts``: media only (FunctionResponsePart)."""
    blocks: list[Block] = []
    for index, raw in enumerate(parts):
        fields = Fields(raw, f"{path}[{index}]")
        if fields.rest.get("inlineData") is not None:
            blocks.append(_inline_data(fields, "inlineData"))
        elif fields.rest.get("fileData") is not None:
            blocks.append(_file_data(fields, "fileData"))
        else:
            raise FormatError("a function response part holds inlineData or fileData", field=path)
    return blocks


def _opaque(raw: dict[str, Any]) -> TextBlock:
    """A part UMF has no block for: readable text for other formats, the part verbatim."""
    return TextBlock(text=_readable(raw), extra={FORMAT_ID: {"$part": raw}})


def _readable(raw: dict[str, Any]) -> str:
    code = raw.get("executableCode")
    if isinstance(code, dict):
        language = code.get("language")
        body = code.get("code")
        fence = language.lower() if isinstance(language, str) else ""
        return f"```{fence}\n{body if isinstance(body, str) else compact_json(body)}\n```"
    result = raw.get("codeExecutionResult")
    if isinstance(result, dict):
        output = result.get("output")
        outcome = result.get("outcome")
        shown = output if isinstance(output, str) else ""
        return f"Code execution result ({outcome}):\n```\n{shown}\n```"
    for key, value in raw.items():
        if key in DATA_FIELDS and value is not None:
            return f"[{key}] {compact_json(value)}"
    return ""


def _extra(
    fields: Fields, *, nested: dict[str, dict[str, Any]] | None = None, **hints: Any
) -> dict[str, dict[str, Any]]:
    """The part's leftover fields, the data object's leftovers under its name, and hints."""
    inner = {key: value for key, value in (nested or {}).items() if value}
    return extra_of(FORMAT_ID, {**fields.rest, **inner, **hints})

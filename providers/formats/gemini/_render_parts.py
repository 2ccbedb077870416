"""UMF blocks -> Gemini parts, with a drift warning for each lossy step.

``faithful`` is set when the conversation was read from this format: parts then come back
exactly as they were read (hints included). Otherwise each block becomes what the API
accepts: ids of other providers are left out (Gemini pairs by name and order), media URLs
become ``fileData`` (Gemini fetches only some), results become objects, foreign reasoning
is dropped.
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from providers.formats._common import (
    hint,
    is_base64,
    own_extra,
    parse_arguments,
    parse_data_uri,
    report_foreign_fields,
    signature_portable,
)
from providers.formats._kit.ids import ToolNames
from providers.formats.base import Drift
from providers.formats.gemini._constants import (
    FETCHABLE_SCHEMES,
    FORMAT_ID,
    FUNCTION_NAME,
    FUNCTION_NAME_REFUSED,
    FUNCTION_NAME_START,
    GEMINI_FILE_PREFIXES,
)
from providers.formats.gemini._media import default_media_type, guess_media_type, media_summary
from providers.formats.gemini._results import response_object
from providers.umf import Block, Extra, MediaSource, ToolResultBlock, ToolUseBlock


@dataclass
class Context:
    """What one render needs everywhere: the warnings, whether to be faithful, the
    function name of every call (a result must name its function), and the names as sent."""

    drift: Drift
    faithful: bool
    call_names: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._names = ToolNames(
            self.drift,
            pattern=FUNCTION_NAME,
            refused=FUNCTION_NAME_REFUSED,
            start=FUNCTION_NAME_START,
            note="function name rewritten to fit Gemini's name rules",
        )

    def function_name(self, original: str, field: str) -> str:
        """``original`` as Gemini takes it (kept as read when rendering faithfully)."""
        return original if self.faithful else self._names(original, field)


@dataclass
class Part:
    """One rendered part and the UMF path it came from; ``call_id`` / ``answers`` are the
    UMF ids of the call it makes or answers (the payload may carry no id at all)."""

    body: dict[str, Any]
    path: str
    call_id: str | None = None
    answers: str | None = None
    name: str | None = None
    moved: bool = False


def render_block(block: Block, path: str, ctx: Context) -> Part | None:
    """One block as a part, or None when Gemini cannot take it (a warning says so)."""
    body = RENDERERS[block.type](block, path, ctx)
    warn_foreign_extra(block.extra, path, ctx)
    if body is None:
        return None
    merge_fields(body, own_extra(block.extra, FORMAT_ID))
    part = Part(body, path)
    if isinstance(block, ToolUseBlock):
        part.call_id, part.name = block.id, body["functionCall"]["name"]
    elif isinstance(block, ToolResultBlock):
        part.answers, part.name = block.tool_use_id, body["functionResponse"]["name"]
    return part


def merge_fields(body: dict[str, Any], fields: dict[str, Any]) -> None:
    """Put kept provider fields back: at the part level, or inside the data object
    (``{"functionCall": {"willContinue": true}}`` joins the call's own fields)."""
    for key, value in fields.items():
        if isinstance(body.get(key), dict) and isinstance(value, dict):
            body[key] = {**body[key], **value}
        else:
            body[key] = value


def warn_foreign_extra(extra: Extra, path: str, ctx: Context) -> None:
    """One ``field-unknown`` note per other format's fields (that hold something)."""
    report_foreign_fields(extra, path, ctx.drift, FORMAT_ID, "Gemini", tail=" and are not sent")


def _text(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    verbatim = hint(block.extra, FORMAT_ID, "part")
    if isinstance(verbatim, dict):
        return copy.deepcopy(verbatim)
    if block.citations is not None:
        ctx.drift.add(
            "content-dropped",
            "Gemini parts carry no citations; left out",
            field=f"{path}.citations",
            original=block.citations,
        )
    return {"text": block.text}


def _refusal(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    ctx.drift.add(
        "content-type-unsupported",
        "Gemini has no refusal part; sent as text",
        field=path,
        original="refusal",
        transformed="text",
    )
    return {"text": block.text}


def _thinking(block: Any, path: str, ctx: Context) -> dict[str, Any] | None:
    if signature_portable(block, FORMAT_ID) and not block.redacted:
        body: dict[str, Any] = {}
        if hint(block.extra, FORMAT_ID, "text") != "absent":
            body["text"] = block.text
        if hint(block.extra, FORMAT_ID, "thought") != "absent":
            body["thought"] = True
        if block.signature is not None:
            body["thoughtSignature"] = block.signature
        return body
    ctx.drift.add(
        "reasoning-dropped",
        "reasoning of another provider (or of unknown origin) cannot be replayed to Gemini; "
        "left out",
        field=path,
        original=block.text or None,
        details={"provider": block.provider, "redacted": block.redacted},
    )
    return None


def _media(block: Any, path: str, ctx: Context) -> dict[str, Any] | None:
    source: MediaSource = block.source
    uri = source.url if source.type == "url" else source.file_id if source.type == "file" else None
    if ctx.faithful and source.type == "base64" and source.data is not None:
        return _inline(source.media_type, source.data, block, path, ctx)
    if ctx.faithful and uri is not None:
        return {"fileData": _file_data(uri, source.media_type)}
    _warn_media_fields(block, path, ctx)
    if source.type == "base64" and source.data is not None:
        return _inline(_inline_type(block, path, ctx), source.data, block, path, ctx)
    if source.type == "url" and uri and uri.startswith("data:"):
        inline = parse_data_uri(uri)
        if inline is not None:
            return _inline(inline[0], inline[1], block, path, ctx)
    if source.type == "text" and source.data is not None:
        encoded = base64.b64encode(source.data.encode()).decode()
        return {"inlineData": {"mimeType": source.media_type or "text/plain", "data": encoded}}
    if uri and uri.startswith(GEMINI_FILE_PREFIXES):
        return {"fileData": _file_data(uri, source.media_type)}
    if uri and source.type == "url" and uri.startswith(FETCHABLE_SCHEMES):
        return _url_as_file(block, uri, path, ctx)
    why = "a file id of another provider" if source.type == "file" else "this source"
    ctx.drift.add(
        "content-dropped",
        f"Gemini cannot take {why}; left out",
        field=path,
        original={"type": block.type, **media_summary(source)},
    )
    return None


def _inline_type(block: Any, path: str, ctx: Context) -> str:
    """The MIME type of base64 media: its own, else the block type's default (noted)."""
    if block.source.media_type is not None:
        return str(block.source.media_type)
    media_type = default_media_type(block.type)
    ctx.drift.add(
        "parameter-defaulted",
        "Gemini needs a MIME type for inline data; a default was used",
        field=f"{path}.source.media_type",
        transformed=media_type,
        severity="info",
    )
    return media_type


def _inline(
    media_type: str | None, data: str, block: Any, path: str, ctx: Context
) -> dict[str, Any] | None:
    if not ctx.faithful and not is_base64(data):
        ctx.drift.add(
            "content-dropped",
            "inline data that is not base64 cannot be sent to Gemini; left out",
            field=path,
            original={"type": block.type, **media_summary(block.source)},
        )
        return None
    blob: dict[str, Any] = {"data": data}
    if media_type is not None:
        blob = {"mimeType": media_type, **blob}
    return {"inlineData": blob}


def _file_data(uri: str, media_type: str | None) -> dict[str, Any]:
    return {"fileUri": uri} if media_type is None else {"mimeType": media_type, "fileUri": uri}


def _url_as_file(block: Any, uri: str, path: str, ctx: Context) -> dict[str, Any]:
    """A web URL as ``fileData``: Gemini fetches only some URLs (no download here)."""
    body = {"fileData": _file_data(uri, block.source.media_type or guess_media_type(uri))}
    ctx.drift.add(
        "content-type-unsupported",
        "Gemini takes media URLs as fileData, which it fetches only for supported (public "
        "HTTPS, Cloud Storage) URIs; the URL was not downloaded",
        field=path,
        original=uri,
        transformed=body,
    )
    return body


def _warn_media_fields(block: Any, path: str, ctx: Context) -> None:
    """UMF media fields a Gemini part has no place for."""
    names = {"image": ("detail",), "document": ("title", "filename")}.get(block.type, ())
    for name in names:
        value = getattr(block, name)
        if value is not None and value != "auto":
            ctx.drift.add(
                "field-unknown",
                f"Gemini parts have no {name}; left out",
                field=f"{path}.{name}",
                original=value,
                severity="info",
            )


def _tool_use(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    call: dict[str, Any] = {"name": ctx.function_name(block.name, f"{path}.name")}
    if hint(block.extra, FORMAT_ID, "args") != "absent":
        call["args"] = block.input if ctx.faithful else _arguments(block, path, ctx)
    if _keeps_id(block, ctx):
        call["id"] = block.id
    elif FORMAT_ID not in block.extra:
        ctx.drift.add(
            "id-rewritten",
            "Gemini pairs calls and results by name and order; the call id is not sent",
            field=f"{path}.id",
            original=block.id,
            transformed=None,
            severity="info",
        )
    return {"functionCall": call}


def _keeps_id(block: Any, ctx: Context) -> bool:
    """Ids Gemini gave are sent back; made-up ones and other providers' are not."""
    if hint(block.extra, FORMAT_ID, "id") == "synthesized":
        return False
    return ctx.faithful or FORMAT_ID in block.extra


def _arguments(block: ToolUseBlock, path: str, ctx: Context) -> dict[str, Any]:
    """The call's arguments as the object Gemini requires; ``{}`` (and a warning that they
    were lost) when the source only had an argument string that is not an object."""
    if isinstance(block.input, dict) and (block.input or block.raw_arguments is None):
        return block.input
    if block.raw_arguments is not None:
        decoded, ok = parse_arguments(block.raw_arguments)
        if ok and isinstance(decoded, dict):
            return decoded
        original, where = block.raw_arguments, "raw_arguments"
    else:
        original, where = block.input, "input"
    ctx.drift.add(
        "content-dropped",
        "function call arguments are not a JSON object; sent as {}",
        field=f"{path}.{where}",
        original=original,
        transformed={},
    )
    return {}


def _tool_result(block: Any, path: str, ctx: Context) -> dict[str, Any]:
    text, media = _result_content(block, path, ctx)
    response = hint(block.extra, FORMAT_ID, "response")
    if not isinstance(response, dict):
        response, wrapped = response_object(text, block.is_error)
        if wrapped and not ctx.faithful:
            ctx.drift.add(
                "content-type-unsupported",
                "a Gemini function response is an object; the result was wrapped"
                + (" as an error" if block.is_error else ""),
                field=path,
                original=text,
                transformed=response,
            )
    # Gemini pairs a response with its call by name: the call's name wins when converting.
    name = block.name
    if not (ctx.faithful and name is not None):
        name = ctx.call_names.get(block.tool_use_id) or block.name or block.tool_use_id
        name = ctx.function_name(name, f"{path}.name")
    body: dict[str, Any] = {"name": name, "response": response}
    if _keeps_id(block, ctx):
        body["id"] = block.tool_use_id
    if media or (ctx.faithful and isinstance(block.content, list)):
        body["parts"] = [part.body for part in media]
    return {"functionResponse": body}


def _result_content(block: ToolResultBlock, path: str, ctx: Context) -> tuple[str, list[Part]]:
    """The text of a result (its text blocks joined) and its media as response parts."""
    if isinstance(block.content, str):
        return block.content, []
    texts: list[str] = []
    media: list[Part] = []
    for index, inner in enumerate(block.content):
        inner_path = f"{path}.content[{index}]"
        if inner.type in ("text", "refusal"):
            texts.append(inner.text)
        elif inner.type in ("image", "document", "audio"):
            part = render_block(inner, inner_path, ctx)
            media += [part] if part is not None else []
        else:
            ctx.drift.add(
                "content-dropped",
                f"a Gemini function response cannot hold a {inner.type} block; left out",
                field=inner_path,
                original=inner.model_dump(mode="json", exclude={"extra"}),
            )
    return "\n".join(texts), media


# One renderer per UMF block type (a test checks that none is missing).
RENDERERS: dict[str, Callable[[Any, str, Context], dict[str, Any] | None]] = {
    "text": _text,
    "refusal": _refusal,
    "image": _media,
    "document": _media,
    "audio": _media,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
    "thinking": _thinking,
}

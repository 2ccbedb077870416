"""``IRMetadata``, ``IRUsage`` and finish reasons <-> UMF.

IR metadata becomes the conversation's UMF metadata: request id, provider response id,
timestamp (milliseconds), provenance and the drift warnings the document carries (history,
kept in ``metadata.warnings``, not reported as warnings of the import). Because IR warnings
have no room for layout hints, each metadata object read is also kept verbatim (``$metadata``
hints) with a digest of what UMF says (``$digest``): while that is unchanged, the very
objects come back; once anything changed, metadata is written from UMF.
"""

from __future__ import annotations

from typing import Any

from providers.formats._common import require_list, require_mapping, require_str
from providers.formats.base import FormatError
from providers.umf import (
    JSON,
    WARNING_CATEGORIES,
    Conversation,
    DriftWarning,
    FinishReason,
    Message,
    Metadata,
    Provenance,
    Usage,
)

from ._shared import (
    RenderContext,
    at,
    digest,
    from_millis,
    is_int,
    is_number,
    item,
    require_int,
    to_millis,
)

FINISH_REASONS: tuple[FinishReason, ...] = (
    "stop",
    "length",
    "tool_calls",
    "content_filter",
    "error",
    "cancelled",
)
IR_WARNING_CATEGORIES = WARNING_CATEGORIES[:10]  # the ai.matey ones come first in UMF's list
SEVERITIES = ("info", "warning", "error")
_USAGE_KEYS = {"promptTokens": "prompt_tokens", "completionTokens": "completion_tokens"}
_USAGE_KEYS["totalTokens"] = "total_tokens"


# --------------------------------------------------------------------------- metadata


def parse_metadata(raw: JSON, path: str, *, partial: bool = False) -> Metadata:
    """UMF metadata from an ``IRMetadata`` (``partial``: a metadata chunk's update, where
    every field is optional)."""
    source = require_mapping(raw, path)
    fields: dict[str, Any] = {}
    if "requestId" in source or not partial:
        fields["request_id"] = require_str(source.get("requestId"), at(path, "requestId"))
    if "timestamp" in source or not partial:
        if not is_number(source.get("timestamp")):
            raise FormatError("expected milliseconds since the epoch", field=at(path, "timestamp"))
        fields["timestamp"] = from_millis(source["timestamp"])
    if source.get("providerResponseId") is not None:
        fields["provider_response_id"] = require_str(
            source["providerResponseId"], at(path, "providerResponseId")
        )
    if source.get("provenance") is not None:
        fields["provenance"] = _parse_provenance(source["provenance"], at(path, "provenance"))
    if source.get("warnings") is not None:
        fields["warnings"] = _parse_warnings(source["warnings"], at(path, "warnings"))
    if source.get("custom") is not None:
        fields["custom"] = dict(require_mapping(source["custom"], at(path, "custom")))
    return Metadata(**fields)


def _parse_provenance(raw: JSON, path: str) -> Provenance:
    source = require_mapping(raw, path)
    fields: dict[str, Any] = {}
    for key in ("frontend", "backend", "router"):
        if source.get(key) is not None:
            fields[key] = require_str(source[key], at(path, key))
    if source.get("middleware") is not None:
        middleware = require_list(source["middleware"], at(path, "middleware"))
        fields["middleware"] = [
            require_str(name, item(at(path, "middleware"), i)) for i, name in enumerate(middleware)
        ]
    return Provenance(**fields)


def _parse_warnings(raw: JSON, path: str) -> list[DriftWarning]:
    warnings = []
    for index, entry in enumerate(require_list(raw, path)):
        warning = _parse_warning(entry, item(path, index))
        if warning is not None:
            warnings.append(warning)
    return warnings


def _parse_warning(raw: JSON, path: str) -> DriftWarning | None:
    """One IRWarning; None for a category UMF does not know (later ai.matey versions add
    some): it then travels only in the verbatim metadata."""
    source = require_mapping(raw, path)
    category = require_str(source.get("category"), at(path, "category"))
    severity = require_str(source.get("severity"), at(path, "severity"))
    if severity not in SEVERITIES:
        raise FormatError("severity is info, warning or error", field=at(path, "severity"))
    message = require_str(source.get("message"), at(path, "message"))
    optional = {key: source.get(key) for key in ("field", "source")}
    for key, value in optional.items():
        if value is not None:
            require_str(value, at(path, key))
    details = source.get("details")
    if details is not None:
        require_mapping(details, at(path, "details"))
    if category not in WARNING_CATEGORIES:
        return None
    return DriftWarning(
        category=category,  # type: ignore[arg-type]  # checked against the categories above
        severity=severity,  # type: ignore[arg-type]  # checked against SEVERITIES above
        message=message,
        field=optional["field"],
        original_value=source.get("originalValue"),
        transformed_value=source.get("transformedValue"),
        source=optional["source"],
        details=details,
    )


def merge_metadata(base: Metadata, update: Metadata) -> Metadata:
    """``base`` with what a later metadata object adds: its response id, provenance and
    custom fields win, its warnings that ``base`` lacks are appended."""
    merged = base.model_copy(deep=True)
    for key in update.model_fields_set - {"warnings", "custom"}:
        if key not in ("request_id", "timestamp") or getattr(merged, key) is None:
            setattr(merged, key, getattr(update, key))
    merged.warnings += [w for w in update.warnings if w not in merged.warnings]
    merged.custom = {**merged.custom, **update.custom}
    return merged


def state_digest(conversation: Conversation, answer: Message | None) -> str:
    """A digest of the metadata (and answer) UMF holds, to tell whether what was read is
    unchanged."""
    return digest(
        {
            "metadata": conversation.metadata.model_dump(mode="json"),
            "answer": None if answer is None else answer.model_dump(mode="json", exclude={"extra"}),
        }
    )


def render_metadata(
    metadata: Metadata, ctx: RenderContext, fallback: tuple[str, int], *, response: bool
) -> dict[str, Any]:
    """An ``IRMetadata`` written from UMF (``response``: with the provider's response id).
    The required id and timestamp fall back to ``fallback`` with a warning."""
    out: dict[str, Any] = {"requestId": metadata.request_id, "timestamp": None}
    if metadata.timestamp is not None:
        out["timestamp"] = to_millis(metadata.timestamp)
    for key, value, field in (
        ("requestId", fallback[0], "request_id"),
        ("timestamp", fallback[1], "timestamp"),
    ):
        if out[key] is None:
            out[key] = value
            ctx.drift.add(
                "parameter-defaulted",
                f"IR metadata needs {key}; none was given",
                field=f"metadata.{field}",
                transformed=value,
                severity="info",
            )
    if response and metadata.provider_response_id is not None:
        out["providerResponseId"] = metadata.provider_response_id
    if metadata.provenance is not None:
        out["provenance"] = _render_provenance(metadata.provenance, ctx)
    if metadata.warnings:
        out["warnings"] = _render_warnings(metadata.warnings, ctx)
    if metadata.custom:
        out["custom"] = metadata.custom
    return out


def _render_provenance(provenance: Provenance, ctx: RenderContext) -> dict[str, Any]:
    out = provenance.model_dump(exclude_none=True, exclude={"model"})
    if not provenance.middleware:
        out.pop("middleware", None)
    if provenance.model is not None:
        ctx.drift.add(
            "content-dropped",
            "IR provenance does not name the served model",
            field="metadata.provenance.model",
            original=provenance.model,
            severity="info",
        )
    return out


def _render_warnings(warnings: list[DriftWarning], ctx: RenderContext) -> list[dict[str, Any]]:
    out, renamed = [], []
    for warning in warnings:
        body = {
            "category": warning.category,
            "severity": warning.severity,
            "message": warning.message,
            "field": warning.field,
            "originalValue": warning.original_value,
            "transformedValue": warning.transformed_value,
            "source": warning.source,
            "details": warning.details,
        }
        if warning.category not in IR_WARNING_CATEGORIES:
            renamed.append(warning.category)
            body["category"] = "capability-unsupported"
            body["details"] = {**(warning.details or {}), "category": warning.category}
        out.append({key: value for key, value in body.items() if value is not None})
    if renamed:
        ctx.drift.add(
            "parameter-normalized",
            "drift categories the IR does not have are recorded as capability-unsupported, "
            "the original category in details",
            field="metadata.warnings",
            original=renamed,
            transformed="capability-unsupported",
            severity="info",
        )
    return out


def fallback_identity(conversation: Conversation) -> tuple[str, int]:
    """The request id and timestamp used when UMF has none: an id derived from the
    messages (the same conversation always gets the same one) and the first message's
    time (else the epoch)."""
    messages = [
        message.model_dump(mode="json", exclude={"extra"}) for message in conversation.messages
    ]
    stamps = [m.timestamp for m in conversation.messages if m.timestamp is not None]
    return f"req_{digest(messages)[:24]}", to_millis(stamps[0]) if stamps else 0


# --------------------------------------------------------------------------- usage


def parse_usage(raw: JSON, path: str, *, partial: bool = False) -> Usage:
    """UMF usage from an ``IRUsage`` (``partial``: a metadata chunk's, counts optional);
    ``raw`` keeps the object."""
    source = require_mapping(raw, path)
    counts: dict[str, int] = {}
    for key, name in _USAGE_KEYS.items():
        if key in source or not partial:
            counts[name] = require_int(source.get(key), at(path, key))
    if source.get("details") is not None:
        require_mapping(source["details"], at(path, "details"))
    return Usage(**counts, raw=dict(source))


def render_usage(usage: Usage) -> dict[str, Any]:
    """An ``IRUsage``: the one read when it still holds these counts, else built."""
    raw = usage.raw or {}
    if all(key in raw for key in _USAGE_KEYS) and _counts_match(raw, usage):
        return raw
    prompt, completion = usage.prompt_tokens or 0, usage.completion_tokens or 0
    out: dict[str, Any] = {
        "promptTokens": prompt,
        "completionTokens": completion,
        "totalTokens": usage.total_tokens
        if usage.total_tokens is not None
        else prompt + completion,
    }
    details = {
        "cachedTokens": usage.cached_tokens,
        "cacheWriteTokens": usage.cache_write_tokens,
        "reasoningTokens": usage.reasoning_tokens,
    }
    details = {key: value for key, value in details.items() if value is not None}
    if details:
        out["details"] = details
    return out


def _counts_match(raw: dict[str, Any], usage: Usage) -> bool:
    return all(
        is_int(raw[key]) and raw[key] == getattr(usage, name) for key, name in _USAGE_KEYS.items()
    )


def parse_finish_reason(raw: JSON, path: str) -> FinishReason:
    """A ``FinishReason`` (the IR's are UMF's own)."""
    reason = require_str(raw, path)
    if reason not in FINISH_REASONS:
        raise FormatError(f"finishReason is one of {', '.join(FINISH_REASONS)}", field=path)
    return reason

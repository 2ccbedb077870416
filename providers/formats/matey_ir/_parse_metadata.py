"""``IRMetadata``, ``IRUsage`` and finish reasons -> UMF (``_render_metadata`` writes them).

IR metadata becomes the conversation's UMF metadata: request id, provider response id,
timestamp (milliseconds), provenance and the drift warnings the document carries (history,
kept in ``metadata.warnings``, not reported as warnings of the import). Because IR warnings
have no room for layout hints, each metadata object read is also kept verbatim (``$metadata``
hints) with a digest of what UMF says (``$digest``): while that is unchanged, the very
objects come back; once anything changed, metadata is written from UMF.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from providers.formats._kit.fields import require_mapping, require_str
from providers.formats._kit.paths import at, is_int, is_number, require
from providers.formats._kit.wire import json_digest
from providers.formats._message_lists.shapes import read_list
from providers.formats.base import FormatError
from providers.formats.matey_ir._constants import FINISH_REASONS, SEVERITIES, USAGE_KEYS
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

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


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
        warnings = read_list(source["warnings"], at(path, "warnings"), _parse_warning)
        fields["warnings"] = [warning for warning in warnings if warning is not None]
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
        fields["middleware"] = read_list(source["middleware"], at(path, "middleware"), require_str)
    return Provenance(**fields)


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
    for key in update.model_dump(exclude_defaults=True).keys() - {"warnings", "custom"}:
        if key not in ("request_id", "timestamp") or getattr(merged, key) is None:
            setattr(merged, key, getattr(update, key))
    merged.warnings += [w for w in update.warnings if w not in merged.warnings]
    merged.custom = {**merged.custom, **update.custom}
    return merged


def state_digest(conversation: Conversation, answer: Message | None) -> str:
    """A digest of the metadata (and answer) UMF holds, to tell whether what was read is
    unchanged."""
    return json_digest(
        {
            "metadata": conversation.metadata.model_dump(mode="json"),
            "answer": None if answer is None else answer.model_dump(mode="json", exclude={"extra"}),
        }
    )


def parse_usage(raw: JSON, path: str, *, partial: bool = False) -> Usage:
    """UMF usage from an ``IRUsage`` (``partial``: a metadata chunk's, counts optional);
    ``raw`` keeps the object."""
    source = require_mapping(raw, path)
    counts: dict[str, int] = {}
    for key, name in USAGE_KEYS.items():
        if key in source or not partial:
            counts[name] = require(source.get(key), is_int, "an integer", at(path, key))
    if source.get("details") is not None:
        require_mapping(source["details"], at(path, "details"))
    return Usage(**counts, raw=dict(source))


def parse_finish_reason(raw: JSON, path: str) -> FinishReason:
    """A ``FinishReason`` (the IR's are UMF's own)."""
    reason = require_str(raw, path)
    if reason not in FINISH_REASONS:
        raise FormatError(f"finishReason is one of {', '.join(FINISH_REASONS)}", field=path)
    return reason


def from_millis(value: JSON) -> datetime | None:
    """The instant of a millisecond timestamp (None when it is not a whole, plausible one;
    the number itself then travels only verbatim)."""
    if not is_int(value):
        return None
    try:
        return EPOCH + timedelta(milliseconds=value)
    except OverflowError:
        return None

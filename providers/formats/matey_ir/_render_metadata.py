"""UMF metadata, usage and drift history -> ``IRMetadata`` and ``IRUsage`` (see
:mod:`._parse_metadata` for the reading, and for when the objects read come back as they
were)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_defaulted, report_field_dropped
from providers.formats._kit.paths import is_int
from providers.formats._kit.wire import json_digest
from providers.formats.matey_ir._constants import IR_WARNING_CATEGORIES, USAGE_KEYS
from providers.formats.matey_ir._parse_metadata import EPOCH
from providers.umf import Conversation, DriftWarning, Metadata, Provenance, Usage


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
            report_defaulted(
                f"metadata.{field}", value, ctx.drift, f"IR metadata needs {key}; none was given"
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
        why = "IR provenance does not name the served model"
        report_field_dropped("metadata.provenance", "model", provenance.model, ctx.drift, why)
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
    return f"req_{json_digest(messages)[:24]}", to_millis(stamps[0]) if stamps else 0


def render_usage(usage: Usage) -> dict[str, Any]:
    """An ``IRUsage``: the one read when it still holds these counts, else built."""
    raw = usage.raw or {}
    if all(key in raw for key in USAGE_KEYS) and _counts_match(raw, usage):
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
        is_int(raw[key]) and raw[key] == getattr(usage, name) for key, name in USAGE_KEYS.items()
    )


def to_millis(value: datetime) -> int:
    """Milliseconds since the epoch (what IRMetadata.timestamp holds)."""
    return (value - EPOCH) // timedelta(milliseconds=1)

"""The rules of a UMF document, enforced where it enters (the ``umf`` format is one of the
edges where untrusted input is validated, once): every value is validated by the UMF
models, naming the field it refuses, and a leaf that lax validation would read as another
type is refused unless it comes back exactly as it was written."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from providers._umf_base import NOT_RFC3339, UMFModel, UMFValidationError
from providers.formats.base import FormatError
from providers.umf import JSON

ModelT = TypeVar("ModelT", bound=UMFModel)


def validate(model: type[ModelT], data: dict[str, Any], path: str) -> ModelT:
    """``data`` validated as ``model``; a :class:`FormatError` naming the field (below
    ``path``) for the first thing it refuses. A timestamp in an ISO 8601 form that is not
    RFC 3339 (``2024-05-01``, ``2024-05-01T10:00Z``) is read too: people write UMF by
    hand, and the document's own string is what is written back (``$written``)."""
    while True:  # each round reads one more timestamp string, of the few a value holds
        try:
            return model.model_validate(data)
        except UMFValidationError as error:
            read = _iso_timestamp(data, error)
            if read is None:
                raise FormatError(error.message, field=error.under(path)) from None
            data = read


def _iso_timestamp(data: dict[str, Any], error: UMFValidationError) -> dict[str, Any] | None:
    """``data`` with the timestamp ``error`` refused read as ISO 8601, or None if it is not
    a timestamp refused for its form, or ISO 8601 cannot read it either."""
    if error.message != NOT_RFC3339:
        return None
    *parents, key = error.field.split(".")
    copy = dict(data)
    inner = copy
    for name in parents:  # timestamps are fields of objects, not of list items
        if not isinstance(inner.get(name), dict):
            return None
        inner[name] = inner = dict(inner[name])
    written = inner.get(key)
    if not isinstance(written, str):
        return None
    try:
        inner[key] = datetime.fromisoformat(written)
    except ValueError:
        return None
    return copy


def written_as_read(value: Any, raw: JSON, where: str) -> JSON:
    """``raw``, a leaf the model holds as ``value`` of another type, if it can be written
    back as it was (an integer in a float field, a timestamp string); else a FormatError:
    lax validation read it (``"5"`` or ``false`` as an integer, ``0`` as a timestamp), but it
    would come back as something else."""
    if isinstance(value, float) and type(raw) is int and value == raw and int(value) == raw:
        return raw
    if isinstance(value, datetime) and isinstance(raw, str):
        return raw
    expected = "a timestamp string" if isinstance(value, datetime) else type(value).__name__
    raise FormatError(f"expected {expected}, got {type(raw).__name__}", field=where)

"""The rules of a UMF document, enforced where it enters (the ``umf`` format is one of the
edges where untrusted input is validated, once): every value is validated by the UMF
models, naming the field it refuses, and a leaf that lax validation would read as another
type is refused unless it comes back exactly as it was written."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from providers._umf_base import UMFModel, UMFValidationError
from providers.formats.base import FormatError
from providers.umf import JSON

ModelT = TypeVar("ModelT", bound=UMFModel)


def validate(model: type[ModelT], data: dict[str, Any], path: str) -> ModelT:
    """``data`` validated as ``model``; a :class:`FormatError` naming the field (below
    ``path``) for the first thing it refuses."""
    try:
        return model.model_validate(data)
    except UMFValidationError as error:
        field = f"{path}.{error.field}".replace(".[", "[") if error.field else path
        raise FormatError(error.message, field=field) from None


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

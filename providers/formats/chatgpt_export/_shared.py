"""Names and extra-field helpers the chatgpt-export modules share."""

from __future__ import annotations

from typing import Any

from providers.formats._common import extra_of, own_extra, with_hints
from providers.umf import Extra

FORMAT_ID = "chatgpt-export"


def hints(fields: dict[str, Any], **values: Any) -> Extra:
    """``extra`` holding this format's ``fields`` and ``$`` hints (None hints left out)."""
    return extra_of(FORMAT_ID, with_hints(fields, **values))


def get_hint(value: Any, key: str, default: Any = None) -> Any:
    """A ``$key`` hint this format left on a value."""
    return value.extra.get(FORMAT_ID, {}).get(f"${key}", default)


def fields_of(value: Any, *skip: str) -> dict[str, Any]:
    """This format's verbatim fields on a value (its hints, and ``skip``, left out)."""
    return {k: v for k, v in own_extra(value.extra, FORMAT_ID).items() if k not in skip}

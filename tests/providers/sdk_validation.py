"""Validate what the renderers produce against the providers' own SDK request types.

The SDKs type requests as TypedDicts; pydantic validates them, but lazily for ``Iterable``
fields (messages, content blocks...), so each validator walks the result to force every
nested iterator: a bad block deep inside a message fails here, not never. The adapters are
cached: a lazy iterator outliving its TypeAdapter crashes pydantic-core.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import pydantic


def _materialize(value: Any) -> Any:
    """Walk a validated value, consuming pydantic's lazy validator iterators."""
    if isinstance(value, Mapping):
        return {key: _materialize(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_materialize(item) for item in value]
    if isinstance(value, Iterator) or type(value).__name__ == "ValidatorIterator":
        return [_materialize(item) for item in value]
    return value


@cache
def _anthropic_adapter(streaming: bool) -> pydantic.TypeAdapter[Any]:
    from anthropic.types import message_create_params

    if streaming:
        return pydantic.TypeAdapter(message_create_params.MessageCreateParamsStreaming)
    return pydantic.TypeAdapter(message_create_params.MessageCreateParamsNonStreaming)


def validate_anthropic_request(payload: Any) -> Any:
    """Raise ``pydantic.ValidationError`` unless ``payload`` is a valid Anthropic Messages
    request (``MessageCreateParams``, streaming or not), and return the validated value."""
    streaming = isinstance(payload, Mapping) and payload.get("stream") is True
    return _materialize(_anthropic_adapter(streaming).validate_python(payload))

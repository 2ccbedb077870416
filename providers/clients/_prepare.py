"""The UMF request a client sends: the caller's conversation with the model and parameter
overrides applied, and without the layout hints that would make a format write the shape
the conversation was imported in (an exchange, a bare response) instead of a request."""

from __future__ import annotations

from typing import Any

from providers._umf_base import UMFValidationError
from providers._umf_walk import field_names
from providers.clients.base import PermanentProviderError
from providers.umf import Conversation, Extra, Parameters

# Hints that choose a payload shape rather than describe a value: a client always sends a
# request, whatever shape the conversation was read from.
_SHAPE_HINTS = frozenset({"$shape", "$exchange"})
_OVERRIDABLE = frozenset(field_names(Parameters)) - {"model", "stream", "custom"}


def request_conversation(
    conversation: Conversation,
    *,
    model: str,
    parameters: dict[str, Any] | None,
    provider_format: str | None = None,
) -> Conversation:
    """A copy of ``conversation`` to send to ``model``.

    ``parameters`` override the UMF parameters by name (``temperature``, ``max_tokens``...).
    A name UMF has none for is the provider's own (``reasoning_effort``, ``thinking``,
    ``options``...): it goes to the conversation's ``extra[provider_format]``, which the
    format sends verbatim, or to ``parameters.custom`` when there is no provider format.
    ``stream`` is left unset: the client decides it from its configuration. Raises
    :class:`PermanentProviderError` for a value of the wrong type.
    """
    overrides = dict(parameters or {})
    custom = dict(conversation.parameters.custom)
    custom_override = overrides.pop("custom", None)
    if isinstance(custom_override, dict):
        custom.update(custom_override)
    known = {key: value for key, value in overrides.items() if key in _OVERRIDABLE}
    native = {key: value for key, value in overrides.items() if key not in _OVERRIDABLE | {"model"}}
    extra = _without_shape_hints(conversation.extra)
    if provider_format is None:
        custom.update(native)
    elif native:
        extra[provider_format] = {**extra.get(provider_format, {}), **native}
    fields = {
        **conversation.parameters.model_dump(exclude_defaults=True),
        **known,
        "model": model,
        "stream": None,
        "custom": custom,
    }
    try:
        merged = Parameters.model_validate(fields)
    except UMFValidationError as error:
        raise PermanentProviderError(f"invalid parameter {error.field}: {error.message}") from None
    return conversation.model_copy(update={"parameters": merged, "extra": extra})


def _without_shape_hints(extra: Extra) -> Extra:
    return {
        namespace: {key: value for key, value in fields.items() if key not in _SHAPE_HINTS}
        for namespace, fields in extra.items()
    }

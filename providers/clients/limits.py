"""What a call may cost the operator: the models a provider may be asked for, the
parameters a caller may set, and the clamps on how many answers and tokens one request
may ask for. The operator sets them per provider (``UMF_PROVIDERS`` entries: ``models``,
``parameters``, ``max_tokens``, ``max_n``); a replay is refused when it names a model or a
parameter outside them, and every request is clamped before it is sent, whatever the
stored conversation asks for, with a ``parameter-clamped`` warning for each clamp.
"""

from __future__ import annotations

from typing import Any

from providers.umf import DriftWarning

# The parameters a replay may set when the operator lists none: sampling and length, the
# UMF names and the providers' own words for the same things. Not ``n`` (answers
# multiply the bill), not ``stream`` (the configuration decides it).
DEFAULT_PARAMETERS = frozenset(
    {
        "temperature",
        "top_p",
        "top_k",
        "max_tokens",
        "stop",
        "seed",
        "frequency_penalty",
        "presence_penalty",
        "reasoning_effort",
        "max_completion_tokens",
        "max_output_tokens",
    }
)
DEFAULT_MAX_TOKENS = 8192
DEFAULT_MAX_N = 1

# Where each provider's request says how many tokens may come back, and how many answers:
# the provider's words, read from the rendered request (the stored conversation may carry
# any of them in its provider fields, not only the replay's parameters).
_TOKEN_FIELDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "openai-chat": (("max_tokens",), ("max_completion_tokens",)),
    "openai-responses": (("max_output_tokens",),),
    "anthropic": (("max_tokens",),),
    "gemini": (("generationConfig", "maxOutputTokens"),),
    "ollama": (("options", "num_predict"),),
    "umf": (("parameters", "max_tokens"),),
}
_COUNT_FIELDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "openai-chat": (("n",),),
    "gemini": (("generationConfig", "candidateCount"),),
    "umf": (("parameters", "custom", "n"),),
}


def model_refusal(models: tuple[str, ...], provider: str, model: str) -> str | None:
    """Why ``model`` may not be asked of ``provider`` (None: it may). A provider whose
    configuration lists models answers only those; one without a list (a local Ollama)
    any model its server has."""
    if not models or model in models:
        return None
    return f"model {model!r} is not offered by {provider}; choose one of: {', '.join(models)}"


def parameter_refusal(
    allowed: frozenset[str], provider: str, parameters: dict[str, Any]
) -> tuple[str, str] | None:
    """``(field, message)`` for the first parameter a caller may not set, or None."""
    for name in parameters:
        if name not in allowed:
            listed = ", ".join(sorted(allowed))
            return (
                f"parameters.{name}",
                f"parameter {name!r} may not be set for {provider}; allowed: {listed}",
            )
    return None


def clamp_request(
    format_id: str, payload: Any, *, max_tokens: int, max_n: int
) -> list[DriftWarning]:
    """Lower, in the rendered ``payload``, every token limit above ``max_tokens`` and
    every answer count above ``max_n``; one ``parameter-clamped`` warning each."""
    if not isinstance(payload, dict):
        return []
    warnings = []
    for fields, cap in (
        (_TOKEN_FIELDS.get(format_id, ()), max_tokens),
        (_COUNT_FIELDS.get(format_id, ()), max_n),
    ):
        for path in fields:
            holder = _holder(payload, path)
            value = holder.get(path[-1]) if holder is not None else None
            if isinstance(value, int | float) and not isinstance(value, bool) and value > cap:
                assert holder is not None
                holder[path[-1]] = cap
                warnings.append(
                    DriftWarning(
                        category="parameter-clamped",
                        field=".".join(path),
                        original_value=value,
                        transformed_value=cap,
                        message=f"{'.'.join(path)} {value} lowered to {cap}, the most this "
                        "server allows per request",
                    )
                )
    return warnings


def _holder(payload: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any] | None:
    node: Any = payload
    for key in path[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else None

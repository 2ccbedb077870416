"""The tool rules the content-block APIs share, in the provider's words: a tool choice
needs tools, and a tool needs an input schema."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.drift import report_defaulted
from providers.formats._kit.wire import empty_object_schema
from providers.formats.base import Drift
from providers.umf import ToolChoice


def report_choice_without_tools(choice: ToolChoice, drift: Drift, target: str) -> None:
    """The note for a tool choice left out because no tool is sent."""
    drift.add(
        "parameter-normalized",
        f"tool_choice without tools means nothing to {target}; left out",
        field="tool_choice",
        original=choice.type,
        severity="info",
    )


def defaulted_schema(path: str, drift: Drift, target: str) -> dict[str, Any]:
    """An empty object schema for a tool that has none, said as an info."""
    schema = empty_object_schema()
    why = f"{target} tools need an input schema; an empty object schema was used"
    report_defaulted(f"{path}.parameters", schema, drift, why)
    return schema

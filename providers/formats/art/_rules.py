"""The structural rules of ART messages, applied to conversations converted from another
format: a call's arguments are "a stringified JSON object" (seed 004), and ART's schema
refuses a result with an empty ``tool_call_id`` (empty ids are replaced, the same way on
the call and its results)."""

from __future__ import annotations

from dataclasses import dataclass

from providers.formats._kit.context import RenderContext
from providers.formats._kit.ids import ToolIdMap, call_id_from_hash
from providers.formats._kit.paths import at
from providers.formats._kit.wire import arguments_string, parse_arguments
from providers.formats._message_lists.render import ListContext, input_object
from providers.umf import ToolUseBlock


@dataclass
class ArtContext(ListContext):
    """One render: also the id map."""

    ids: ToolIdMap | None = None

    def call_id(self, original: str, path: str) -> str:
        """The id to write for a call or result id read at ``path``."""
        if self.faithful:
            return original
        if self.ids is None:
            self.ids = ToolIdMap(self.drift, bool, call_id_from_hash)
        return self.ids(original, path)


def arguments(block: ToolUseBlock, path: str, ctx: RenderContext) -> str:
    """The argument string: what was read when faithful, else a JSON object, with a
    warning when the call's own string was not one."""
    if ctx.faithful:
        return arguments_string(block.input, block.raw_arguments)
    value = input_object(block, path, ctx, "ART arguments are a JSON object; the value is wrapped")
    raw = block.raw_arguments if value is block.input else None
    if raw is not None and not parse_arguments(raw)[1]:
        raw = None
        ctx.drift.add(
            "content-dropped",
            "the call's arguments were not valid JSON; the parsed (empty) input is sent",
            field=at(path, "raw_arguments"),
            original=block.raw_arguments,
            transformed=value,
        )
    return arguments_string(value, raw)

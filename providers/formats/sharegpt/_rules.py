"""LLaMA-Factory's structural rule for a ShareGPT entry converted from another format: its
turns alternate between the user side (``human``, ``observation``) and the assistant side
(``gpt``, ``function_call``); turns of one side in a row are merged, with a warning."""

from __future__ import annotations

from ._constants import SIDE
from ._render_turns import Context, Turn, finish


def alternate(turns: list[Turn], ctx: Context) -> list[Turn]:
    """The turns with those of the same side in a row merged."""
    out: list[Turn] = []
    for turn in turns:
        if out and SIDE[out[-1].kind] == SIDE[turn.kind]:
            _merge(out[-1], turn, ctx)
        else:
            out.append(turn)
    return out


def _merge(into: Turn, turn: Turn, ctx: Context) -> None:
    path = f"messages[{turn.index}]"
    if (
        into.kind == turn.kind == "observation"
        and into.value is None
        and not (into.pieces or turn.pieces)
    ):
        into.results.extend(turn.results)
    elif "function_call" in (into.kind, turn.kind):
        for dropped in (t for t in (into, turn) if t.kind != "function_call" and t.pieces):
            ctx.drift.add(
                "content-dropped",
                "a function_call turn holds only calls; the text beside them is dropped",
                field=f"messages[{dropped.index}]",
                original=dropped.text(),
            )
        into.calls.extend(turn.calls)
        into.kind = into.name = "function_call"
        into.pieces, into.value = [], None
    else:
        into.value = "\n\n".join(t for t in (finish(into)["value"], finish(turn)["value"]) if t)
    ctx.drift.add(
        "role-merged",
        "ShareGPT turns alternate between the user side and the assistant side",
        field=path,
        original=turn.name,
        transformed=into.name,
    )

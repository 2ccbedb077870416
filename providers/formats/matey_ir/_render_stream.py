"""The answer -> IR stream chunks (a JSON array of ``IRStreamChunk``), when the chunks
read are not written back as they were (see :mod:`._parse_stream`): start, a chunk per
text or call block, and done (or error) with the whole message."""

from __future__ import annotations

from typing import Any

from providers.formats._kit.wire import arguments_string
from providers.formats._message_lists.render import ListContext
from providers.formats.matey_ir._render_messages import render_message
from providers.formats.matey_ir._render_metadata import render_usage
from providers.formats.matey_ir._rules import finish_reason
from providers.umf import Message, TextBlock, ToolUseBlock


def render_stream(
    answer: Message, index: int, metadata: dict[str, Any], mode: str | None, ctx: ListContext
) -> list[dict[str, Any]]:
    """A chunk array for the answer (UMF message ``index``): start, a chunk per text or
    call block, and done (or error) with the whole message."""
    chunks: list[dict[str, Any]] = [{"type": "start", "sequence": 0, "metadata": metadata}]
    so_far = ""
    for block in answer.content:
        sequence = len(chunks)
        if isinstance(block, TextBlock):
            so_far += block.text
            chunk: dict[str, Any] = {"type": "content", "sequence": sequence, "delta": block.text}
            if mode == "accumulated":
                chunk["accumulated"] = so_far
            chunks.append(chunk)
        elif isinstance(block, ToolUseBlock):
            arguments = arguments_string(block.input, block.raw_arguments)
            chunks.append(
                {
                    "type": "tool_use",
                    "sequence": sequence,
                    "id": block.id,
                    "name": block.name,
                    "inputDelta": arguments,
                }
            )
    chunks.append(_last_chunk(answer, index, len(chunks), ctx))
    return chunks


def _last_chunk(answer: Message, index: int, sequence: int, ctx: ListContext) -> dict[str, Any]:
    error = answer.metadata.get("error")
    if answer.finish_reason == "error" and _is_error(error):
        return {"type": "error", "sequence": sequence, "error": error}
    done: dict[str, Any] = {
        "type": "done",
        "sequence": sequence,
        "finishReason": finish_reason(answer, index, ctx),
    }
    if answer.usage is not None:
        done["usage"] = render_usage(answer.usage)
    done["message"] = render_message(answer, index, ctx)
    return done


def _is_error(error: Any) -> bool:
    return (
        isinstance(error, dict)
        and isinstance(error.get("code"), str)
        and isinstance(error.get("message"), str)
    )

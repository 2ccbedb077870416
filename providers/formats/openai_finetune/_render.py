"""A conversation from another format as one supervised fine-tuning line.

The conversation is fitted first (what a line cannot hold leaves with a warning), then
written by ``openai-chat``'s request renderer, whose warnings are kept (re-tagged as this
format's), and the request fields a line does not have are taken off.
"""

from __future__ import annotations

from typing import Any

import orjson

from providers.formats import openai_chat
from providers.formats.base import Drift, Rendered
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    Parameters,
    Tool,
    ToolResultBlock,
)

FORMAT_ID = "openai-finetune"
CHAT = openai_chat.FORMAT_ID
# What a supervised line holds besides its messages.
LINE_KEYS = ("messages", "tools", "parallel_tool_calls")


def render_line(conversation: Conversation) -> Rendered:
    """One supervised line (with its newline) and the warnings for what it lost."""
    drift = Drift(FORMAT_ID)
    fitted = _fit(conversation, drift)
    rendered = openai_chat.render_request(fitted)
    body: dict[str, Any] = dict(rendered.payload)
    body.pop("model", None)  # the fitted conversation has none: it was filled in
    for key in [key for key in body if key not in LINE_KEYS]:
        drift.add(
            "parameter-unsupported",
            f"a fine-tuning line has no {key}",
            field=f"extra.{CHAT}.{key}",
            original=body.pop(key),
        )
    body = {key: body[key] for key in LINE_KEYS if key in body}
    warnings = [
        warning.model_copy(update={"source": FORMAT_ID})
        for warning in rendered.warnings
        if not (warning.category == "parameter-defaulted" and warning.field == "parameters.model")
    ]
    text = orjson.dumps(body).decode() + "\n"
    return Rendered(text, drift.warnings + warnings)


def _fit(conversation: Conversation, drift: Drift) -> Conversation:
    """A copy without the parameters, tool choice and media a line cannot hold."""
    fitted = conversation.model_copy(deep=True)
    parameters = fitted.parameters.model_dump(exclude_defaults=True)
    for key, value in parameters.items():
        if key != "parallel_tool_calls":
            drift.add(
                "parameter-unsupported",
                "a fine-tuning line has no sampling or request parameters",
                field=f"parameters.{key}",
                original=value,
            )
    fitted.parameters = Parameters(parallel_tool_calls=fitted.parameters.parallel_tool_calls)
    if fitted.tool_choice is not None:
        drift.add(
            "parameter-unsupported",
            "a fine-tuning line has no tool_choice",
            field="tool_choice",
            original=fitted.tool_choice.model_dump(
                mode="json", exclude_defaults=True, exclude={"extra"}
            ),
        )
        fitted.tool_choice = None
    kept = []
    for index, message in enumerate(fitted.messages):
        had_content = bool(message.content)
        message.content = _keep_trainable(message.content, f"messages[{index}].content", drift)
        if message.content or not had_content:
            kept.append(message)  # a message left empty by the drops above goes too
    fitted.messages = kept
    fitted.tools = [
        tool for index, tool in enumerate(fitted.tools) if _trainable(tool, index, drift)
    ]
    return fitted


def _trainable(tool: Tool, index: int, drift: Drift) -> bool:
    # Fine-tuning takes function tools only, not Chat Completions' custom (free-text) ones.
    if tool.extra.get(CHAT, {}).get("$type") != "custom":
        return True
    drift.add(
        "tool-unsupported",
        "fine-tuning takes function tools only",
        field=f"tools[{index}]",
        original=tool.name,
    )
    return False


def _keep_trainable(blocks: list[Block], path: str, drift: Drift) -> list[Block]:
    kept: list[Block] = []
    for position, block in enumerate(blocks):
        block_path = f"{path}[{position}]"
        if isinstance(block, AudioBlock) or (
            isinstance(block, DocumentBlock) and block.source.type != "text"
        ):
            drift.add(
                "content-dropped",
                f"fine-tuning examples take no {block.type} input",
                field=block_path,
                original=block.source.model_dump(mode="json", exclude={"data"}, exclude_none=True),
            )
            continue
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            block.content = _keep_trainable(block.content, f"{block_path}.content", drift)
        kept.append(block)
    return kept

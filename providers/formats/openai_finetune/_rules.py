"""What a supervised fine-tuning line holds: messages, function tools and
``parallel_tool_calls``; no sampling parameters, model or tool choice, no audio and no
documents other than plain text, no custom (free-text) tools. A conversation from another
format is fitted to that before it is written, with a warning for each thing it loses.
"""

from __future__ import annotations

from providers.formats._kit.drift import (
    report_block_dropped,
    report_parameters_dropped,
    report_tool_choice_dropped,
)
from providers.formats.base import Drift
from providers.umf import (
    AudioBlock,
    Block,
    Conversation,
    DocumentBlock,
    Parameters,
    Tool,
    ToolResultBlock,
)

from ._constants import CHAT


def fit(conversation: Conversation, drift: Drift) -> Conversation:
    """A copy without the parameters, tool choice and media a line cannot hold."""
    fitted = conversation.model_copy(deep=True)
    parameters = fitted.parameters.model_dump(exclude_defaults=True)
    parameters.pop("parallel_tool_calls", None)  # a line keeps it
    why = "a fine-tuning line has no sampling or request parameters"
    report_parameters_dropped(parameters, drift, why)
    fitted.parameters = Parameters(parallel_tool_calls=fitted.parameters.parallel_tool_calls)
    if fitted.tool_choice is not None:
        report_tool_choice_dropped(
            fitted.tool_choice, drift, "a fine-tuning line has no tool_choice"
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
            report_block_dropped(
                block, block_path, drift, f"fine-tuning examples take no {block.type} input"
            )
            continue
        if isinstance(block, ToolResultBlock) and isinstance(block.content, list):
            block.content = _keep_trainable(block.content, f"{block_path}.content", drift)
        kept.append(block)
    return kept

"""Names, defaults and tables of the ``openai-responses`` format, in one place for docs and
tests."""

from __future__ import annotations

from typing import Final

from providers.formats._kit.extra import Namespace

FORMAT_ID: Final = "openai-responses"
LABEL: Final = "OpenAI Responses"

# Filled in (``parameter-defaulted``) when a conversation from another format names no model.
DEFAULT_MODEL: Final = "gpt-5-mini"

# Items this format cannot name (hosted-tool calls, item references, unknown item types)
# and hosted tools are kept verbatim, with their position, in these extra fields:
# ``[{"at": index, "item": {...}}]`` / ``[{"at": index, "tool": {...}}]``. Fields, not ``$``
# hints, so that other formats list them among the fields they cannot carry.
UNMAPPED_ITEMS: Final = "unmapped_items"
UNMAPPED_TOOLS: Final = "unmapped_tools"
NS: Final = Namespace(FORMAT_ID, kept=(UNMAPPED_ITEMS, UNMAPPED_TOOLS))

MESSAGE_ROLES: Final = ("user", "system", "developer", "assistant")
PART_TYPES: Final = ("input_text", "output_text", "refusal", "input_image", "input_file")
IMAGE_DETAILS: Final = ("low", "high", "auto", "original")

ASSISTANT_ITEMS = ("reasoning", "function_call", "custom_tool_call")
OUTPUT_ITEMS = ("function_call_output", "custom_tool_call_output")
# Item types of the Responses API besides ``message`` (``ResponseInputItemParam``).
ITEM_TYPES = frozenset(
    {
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "reasoning",
        "item_reference",
        "web_search_call",
        "file_search_call",
        "computer_call",
        "computer_call_output",
        "code_interpreter_call",
        "image_generation_call",
        "local_shell_call",
        "local_shell_call_output",
        "shell_call",
        "shell_call_output",
        "apply_patch_call",
        "apply_patch_call_output",
        "mcp_call",
        "mcp_list_tools",
        "mcp_approval_request",
        "mcp_approval_response",
        "tool_search_call",
        "tool_search_output",
        "additional_tools",
        "compaction",
        "compaction_trigger",
        "program",
        "program_output",
    }
)

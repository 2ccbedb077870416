"""Small ``openai-responses`` payloads in unusual but valid shapes, each of which must
round trip exactly; they also seed the fuzzing.
"""

from __future__ import annotations

from typing import Any

_CALL = {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}
_OUT = {"type": "function_call_output", "call_id": "c1", "output": "ok"}

EDGE_PAYLOADS: dict[str, Any] = {
    "typed easy message": [{"type": "message", "role": "user", "content": "hi"}],
    "empty content list": [{"role": "user", "content": []}],
    "assistant input_text part": [
        {"role": "assistant", "content": [{"type": "input_text", "text": "a"}]}
    ],
    "empty assistant message": [
        {
            "type": "message",
            "role": "assistant",
            "content": [],
            "id": "msg_1",
            "status": "completed",
        }
    ],
    "two answers back to back": [
        {"role": "assistant", "content": "a"},
        {"role": "assistant", "content": [{"type": "output_text", "text": "b"}]},
        {
            "role": "assistant",
            "content": [{"type": "output_text", "text": "c", "annotations": None}],
        },
    ],
    "only item references": [{"id": "msg_1"}, {"type": "item_reference", "id": "rs_2"}],
    "reference before a message": [{"id": "msg_1", "type": None}, {"role": "user", "content": "x"}],
    "unknown item type between calls": [
        _CALL,
        {"type": "future_call", "id": "fut_1", "payload": {"x": 1}},
        {**_CALL, "call_id": "c2"},
        _OUT,
        {**_OUT, "call_id": "c2", "output": []},
    ],
    "reasoning with nulls": [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [],
            "content": None,
            "encrypted_content": None,
        }
    ],
    "reasoning with edited-looking text": [
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "a"}],
            "content": [{"type": "reasoning_text", "text": "b"}],
            "status": "completed",
        }
    ],
    "custom call with json input": [
        {"type": "custom_tool_call", "call_id": "c", "name": "g", "input": '{"a": 1}'},
        {
            "type": "custom_tool_call_output",
            "call_id": "c",
            "output": [{"type": "input_text", "text": "x"}],
        },
    ],
    "output with a name and nulls": [
        {"type": "function_call_output", "call_id": "x", "output": "", "name": "f", "id": None}
    ],
    "data uri with parameters": [
        {
            "role": "user",
            "content": [
                {
                    "type": "input_image",
                    "image_url": "data:image/png;name=a.png;base64,iVBO",
                    "detail": "auto",
                },
                {"type": "input_image", "image_url": "https://x/a.png", "file_id": "file-1"},
                {"type": "input_image", "image_url": None, "file_id": "file-2", "detail": "low"},
            ],
        }
    ],
    "files in every spelling": [
        {
            "role": "user",
            "content": [
                {"type": "input_file", "file_data": "JVBERi0x", "filename": "a.pdf"},
                {"type": "input_file", "file_data": "JVBERi0x"},
                {"type": "input_file", "file_url": "https://x/a.pdf", "file_id": "file-3"},
                {
                    "type": "input_file",
                    "file_data": "data:;base64,JVBE",
                    "file_url": "https://x/b.pdf",
                },
                {"type": "input_file", "file_id": "file-4", "detail": "high", "filename": None},
            ],
        }
    ],
    "request nulls and empties": {
        "model": None,
        "input": [],
        "instructions": None,
        "tools": [],
        "tool_choice": None,
        "temperature": None,
        "max_output_tokens": None,
    },
    "integers for floats": {"input": "x", "temperature": 0, "top_p": 1},
    "floats stay floats": {"input": "x", "temperature": 1.0, "top_p": 0.5},
    "string input beside instructions that are not text": {"input": "hi", "model": "m"},
    "tool choices": {
        "input": "x",
        "tools": [
            {
                "type": "function",
                "name": "f",
                "parameters": None,
                "strict": None,
                "description": None,
            },
            {"type": "custom", "name": "g"},
        ],
        "tool_choice": {"type": "custom", "name": "g"},
    },
    "function tool choice": {
        "input": "x",
        "tools": [{"type": "function", "name": "f"}],
        "tool_choice": {"type": "function", "name": "f"},
    },
    "hosted tool choice": {
        "input": "x",
        "tools": [
            {
                "type": "mcp",
                "server_label": "deepwiki",
                "server_url": "https://mcp.deepwiki.com/mcp",
            }
        ],
        "tool_choice": {"type": "mcp", "server_label": "deepwiki"},
    },
    "string choices": {
        "input": "x",
        "tools": [{"type": "function", "name": "f"}],
        "tool_choice": "required",
    },
    "response without object or usage": {"output": [{"role": "assistant", "content": "a"}]},
    "response with nothing out": {
        "object": "response",
        "id": None,
        "output": [],
        "status": "failed",
    },
    "response with only hosted output": {
        "object": "response",
        "output": [
            {"type": "image_generation_call", "id": "ig_1", "status": "completed", "result": "iVBO"}
        ],
    },
    "response with outputs run by the api": {
        "object": "response",
        "output": [_CALL, {**_OUT, "id": "fco_1"}, {"role": "assistant", "content": "done"}],
    },
    "exchange with an envelope": {
        "request": {"input": "x"},
        "response": {"object": "response", "output": [], "status": "queued"},
        "logged_at": "2025-06-01T10:00:00Z",
    },
}

"""Fixtures and helpers shared by the ``bedrock-converse`` format tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from providers.formats.bedrock_converse import parse
from providers.umf import (
    Conversation,
)
from tests.providers.sdk.bedrock import (
    validate_converse_messages,
    validate_converse_request,
    validate_converse_response,
)

FIXTURES = Path(__file__).parents[3] / "fixtures"
OWN = FIXTURES / "bedrock-converse"
FIXTURE_NAMES = sorted(path.stem for path in OWN.glob("*.json"))
# The model in the URL path of a request logged as the HTTP body (no ``modelId`` member).
PATH_MODEL = "anthropic.claude-3-5-sonnet-20240620-v1:0"


def load(name: str) -> Any:
    return orjson.loads((OWN / f"{name}.json").read_bytes())


def read_without_warnings(payload: Any) -> Conversation:
    """The one conversation read from ``payload``, asserting that nothing was warned."""
    results = parse(payload)
    assert len(results) == 1
    assert results[0].warnings == []
    return results[0].conversation


def stored(conversation: Conversation) -> Conversation:
    """The conversation as storage gives it back."""
    return Conversation.model_validate_json(conversation.model_dump_json())


def canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def validate_payload(payload: Any) -> None:
    """Validate any accepted shape against botocore's Converse input and output shapes."""
    if isinstance(payload, list):
        validate_converse_messages(payload)
    elif "request" in payload:
        validate_converse_request(payload["request"], model_id=PATH_MODEL)
        validate_converse_response(payload["response"])
    elif "output" in payload:
        validate_converse_response(payload)
    else:
        validate_converse_request(payload, model_id=PATH_MODEL)


def _request(*messages: Any, **fields: Any) -> dict[str, Any]:
    return {"modelId": "m", "messages": list(messages), **fields}


def _user(*blocks: Any) -> dict[str, Any]:
    return {"role": "user", "content": list(blocks)}


USER = _user({"text": "hi"})

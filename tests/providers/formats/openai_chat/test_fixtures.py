"""The ``openai-chat`` fixtures rendered as requests OpenAI accepts. What every
chat-completions format's fixtures hold to (round trips, SDK, shape, detection) is in
``chat_completions/test_fixtures.py``."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from providers.formats.openai_chat import render_request
from tests.providers.formats.openai_chat._helpers import (
    FIXTURES,
    parse_one,
    stored,
)
from tests.providers.sdk_validation import (
    check_openai_chat_tool_pairing,
    validate_openai_chat_request,
)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_renders_a_request_openai_accepts(path: Path) -> None:
    conversation = stored(parse_one(orjson.loads(path.read_bytes())))
    rendered = render_request(conversation)
    validate_openai_chat_request(rendered.payload)
    check_openai_chat_tool_pairing(rendered.payload)

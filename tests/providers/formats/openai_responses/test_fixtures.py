"""The ``openai-responses`` fixtures rendered as requests the API accepts, and what plain
messages score. What every chat-completions format's fixtures hold to (round trips, SDK,
shape, detection) is in ``chat_completions/test_fixtures.py``.

Conversions from other formats are in ``test_convert_*.py``.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from providers.formats.openai_responses import render_request
from tests.providers.formats.openai_responses._helpers import (
    FIXTURES,
    RESPONSES,
    parse_one,
    stored,
)
from tests.providers.sdk.openai_responses import (
    check_openai_responses_rules,
    validate_openai_responses_request,
)

# --------------------------------------------------------------------------- fixtures


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_renders_a_request_the_api_accepts(path: Path) -> None:
    request = render_request(stored(parse_one(orjson.loads(path.read_bytes())))).payload
    validate_openai_responses_request(request)
    check_openai_responses_rules(request)


def test_plain_text_messages_only_fit() -> None:
    plain = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    assert RESPONSES.detect(plain) == 1
    assert RESPONSES.detect([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]) == 0
    assert RESPONSES.detect({"messages": plain}) == 0

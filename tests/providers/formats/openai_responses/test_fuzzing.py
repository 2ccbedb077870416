"""Mutated ``openai-responses`` payloads are read and written back exactly or refused with a
FormatError; conversations built by hand render too.
"""

from __future__ import annotations

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from providers.formats.base import FormatError
from providers.formats.openai_responses import render_request
from providers.umf import (
    Conversation,
    Message,
    TextBlock,
)
from tests.providers.formats._mutations import draw_mutation
from tests.providers.formats.openai_responses._edge_payloads import EDGE_PAYLOADS
from tests.providers.formats.openai_responses._helpers import (
    FIXTURES,
    RESPONSES,
    canonical,
    parse_one,
    stored,
)
from tests.providers.sdk.openai_responses import (
    check_openai_responses_rules,
)

# --------------------------------------------------------------------------- fuzzing

_SEEDS = [orjson.loads(path.read_bytes()) for path in FIXTURES] + list(EDGE_PAYLOADS.values())


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    payload = draw_mutation(data, _SEEDS)
    try:
        conversation = parse_one(payload)
    except FormatError:
        return
    rendered = RESPONSES.render(stored(conversation))
    assert canonical(rendered.payload) == canonical(payload)
    request = render_request(stored(conversation)).payload
    check_openai_responses_rules(request)


def test_messages_built_by_hand_render_too() -> None:
    conversation = Conversation(messages=[Message(role="user", content=[TextBlock(text="hi")])])
    assert RESPONSES.render(conversation).payload["input"] == [{"role": "user", "content": "hi"}]

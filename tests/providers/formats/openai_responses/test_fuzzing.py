"""Mutated ``openai-responses`` payloads are read and written back exactly or refused with a
FormatError; conversations built by hand render too.
"""

from __future__ import annotations

from typing import Any

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

_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_SEEDS = [orjson.loads(path.read_bytes()) for path in FIXTURES] + list(EDGE_PAYLOADS.values())


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _nodes(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _nodes(inner, (*path, index))
    return found


def _mutate(document: Any, path: tuple[Any, ...], replacement: Any, delete: bool) -> Any:
    if not path:
        return replacement
    copy = orjson.loads(orjson.dumps(document))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    return copy


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutation_is_read_exactly_or_refused_with_a_format_error(data: st.DataObject) -> None:
    seed = data.draw(st.sampled_from(_SEEDS))
    path = data.draw(st.sampled_from(_nodes(seed)))
    delete = bool(path) and data.draw(st.booleans())
    payload = _mutate(seed, path, data.draw(_JSON), delete)
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

"""``umf`` written a message at a time gives the bytes of the whole payload, so that a
conversation of any length exports in the memory of one message."""

from __future__ import annotations

import orjson
import pytest

from providers.formats import unified
from tests.conftest import FIXTURES, load_fixture

UMF_FIXTURES = sorted(path.name for path in (FIXTURES / "umf").glob("*.json"))


def streamed(payload: object) -> tuple[bytes, bytes]:
    conversation = unified.parse(payload)[0].conversation
    whole = orjson.dumps(unified.render(conversation).payload)
    head = conversation.model_copy(update={"messages": []})
    return whole, b"".join(unified.render_stream(head, iter(conversation.messages)))


@pytest.mark.parametrize("name", UMF_FIXTURES)
def test_the_stream_is_the_whole_payload(name: str) -> None:
    whole, stream = streamed(load_fixture(f"umf/{name}"))
    assert stream == whole


def test_a_bare_list_of_messages_streams_as_a_list() -> None:
    whole, stream = streamed(
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    )
    assert stream == whole and stream.startswith(b"[{")


def test_the_format_declares_that_it_streams() -> None:
    assert unified.FORMAT.render_stream is unified.render_stream

"""The kit's wire values (``providers.formats._kit.wire``): what a warning says about media."""

from __future__ import annotations

import base64

import orjson
import pytest

from providers.formats import get
from providers.formats._kit.wire import media_summary
from providers.umf import AudioBlock, Conversation, MediaSource, Message, TextBlock

_BYTES = base64.b64encode(b"RIFF" + bytes(3000)).decode()
_DATA_URL = f"data:audio/wav;base64,{_BYTES}"


def test_a_media_summary_names_the_source_but_never_holds_the_bytes() -> None:
    as_url = media_summary(MediaSource(type="url", url=_DATA_URL))
    as_base64 = media_summary(MediaSource(type="base64", media_type="audio/wav", data=_BYTES))
    fetched = media_summary(MediaSource(type="url", url="https://example.com/a.wav"))
    assert as_url == {"source": "url"}
    assert as_base64 == {"source": "base64", "media_type": "audio/wav"}
    assert fetched == {"source": "url", "url": "https://example.com/a.wav"}


# The formats whose warnings describe dropped media through the kit's media_summary.
@pytest.mark.parametrize("target", ["anthropic", "ollama"])
def test_dropped_media_given_as_a_data_url_is_warned_without_its_bytes(target: str) -> None:
    audio = AudioBlock(source=MediaSource(type="url", url=_DATA_URL))
    message = Message(role="user", content=[TextBlock(text="listen"), audio])
    rendered = get(target).render(Conversation(messages=[message]))
    said = [
        warning for warning in rendered.warnings if (warning.field or "").startswith("messages[0]")
    ]
    assert said, f"{target} sent a data-URL audio clip on without a word"
    assert _BYTES[:200] not in orjson.dumps([w.model_dump() for w in said]).decode()

"""The collector pause around conversions: nested and concurrent pauses restore the state
the collector was in, whatever happens inside."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from providers import formats
from providers.formats._gc import collector_paused


@pytest.fixture(autouse=True)
def _collector_enabled() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


def test_nested_pauses_restore_the_collector_when_the_outermost_ends() -> None:
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_the_application_disabled_stays_disabled() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_the_collector_comes_back_when_the_body_raises() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_overlapping_pauses_of_two_threads_end_with_the_last_one() -> None:
    inside, release = threading.Event(), threading.Event()

    def worker() -> None:
        with collector_paused():
            inside.set()
            release.wait(timeout=10)

    thread = threading.Thread(target=worker)
    with collector_paused():
        thread.start()
        assert inside.wait(timeout=10)
    assert not gc.isenabled()  # the other thread is still converting
    release.set()
    thread.join(timeout=10)
    assert gc.isenabled()


def test_convert_leaves_the_collector_as_it_found_it() -> None:
    payload = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]}
    formats.convert("openai-chat", "anthropic", payload)
    assert gc.isenabled()
    with pytest.raises(formats.FormatError):
        formats.convert("openai-chat", "anthropic", {"messages": "not a list"})
    assert gc.isenabled()

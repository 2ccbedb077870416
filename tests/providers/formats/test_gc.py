"""The collector pause around conversions: nested and concurrent pauses restore the state
the collector was in, whatever happens inside."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from providers import formats
from providers.formats._gc import PAUSE_FROM, collector_paused, payload_size


@pytest.fixture(autouse=True)
def _collector_enabled() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.enable()
    yield
    if not was_enabled:
        gc.disable()


def test_nested_pauses_restore_the_collector_when_the_outermost_ends() -> None:
    with collector_paused():  # the default size pauses
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


def test_a_small_conversion_leaves_the_collector_running() -> None:
    # A worker's threads convert small requests all the time: they must not keep it off.
    with collector_paused(PAUSE_FROM - 1):
        assert gc.isenabled()
    assert payload_size({"model": "m", "messages": [{}] * 3, "tools": [{}]}) == 3
    assert payload_size([{}] * 7) == 7
    assert payload_size("text") == 0


def test_convert_pauses_the_collector_for_a_large_conversation_only() -> None:
    seen: list[bool] = []
    real_render = formats.get("anthropic").render

    def spy(conversation: object) -> object:
        seen.append(gc.isenabled())
        return real_render(conversation)  # type: ignore[arg-type]

    target = formats.get("anthropic")
    for count in (1, PAUSE_FROM):
        messages = [{"role": "user", "content": f"Hi {i}"} for i in range(count)]
        object.__setattr__(target, "render", spy)
        try:
            formats.convert("openai-chat", "anthropic", {"model": "gpt-4o", "messages": messages})
        finally:
            object.__setattr__(target, "render", real_render)
        assert gc.isenabled()
    assert seen == [True, False]


def test_convert_leaves_the_collector_as_it_found_it() -> None:
    payload = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]}
    formats.convert("openai-chat", "anthropic", payload)
    assert gc.isenabled()
    with pytest.raises(formats.FormatError):
        formats.convert("openai-chat", "anthropic", {"messages": "not a list"})
    assert gc.isenabled()


def test_what_a_pause_built_joins_the_oldest_generation() -> None:
    # Walked by no young collection right after the pause (see providers.formats._gc).
    with collector_paused():
        built = [{"n": [i]} for i in range(2000)]
    assert gc.get_count()[0] < 100
    assert gc.get_freeze_count() == 0
    assert any(value is built for value in gc.get_objects(generation=2))


def test_objects_the_application_froze_stay_frozen() -> None:
    gc.freeze()
    try:
        with collector_paused():
            pass
        assert gc.get_freeze_count() > 0  # not unfrozen (freed ones leave the count)
    finally:
        gc.unfreeze()

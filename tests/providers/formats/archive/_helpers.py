"""Assertions the tests of the archive formats (chatgpt-export, claude-export, sharegpt,
otel-genai) share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers import formats
from providers.formats.base import Format
from providers.umf import Conversation
from tests.providers.sdk.archive import FIXTURES, load, stored, summary


def parse_fixture(fmt: Format, name: str) -> Conversation:
    """The one conversation of the format's fixture ``name``."""
    [item] = fmt.parse(load(FIXTURES / fmt.id / name))
    return item.conversation


def assert_converts(
    target: Format,
    source: str,
    name: str,
    check: Callable[[Any], None],
    *,
    file_of_one: bool = True,
) -> tuple[Any, list[tuple[Any, ...]]]:
    """Render the ``source`` format's fixture ``name`` (as stored) in ``target`` and assert
    that the payload passes ``check`` (the target's validator) and that every warning is
    the target's. The payload (its one entry when ``file_of_one``) and the warnings'
    summary."""
    conversation = formats.get(source).parse(load(FIXTURES / source / name))[0].conversation
    rendered = target.render(stored(conversation))
    payload = rendered.payload
    if file_of_one:
        [payload] = payload
    check(payload)
    assert all(warning.source == target.id for warning in rendered.warnings)
    return payload, summary(rendered.warnings)

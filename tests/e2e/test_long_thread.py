"""A long conversation in the browser (issue 21): its page shows a window of the thread,
says where it is, and moves between windows, on a phone and on a desktop; a "result of"
link leads to the window of its call."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import log_in, opened_page

pytestmark = pytest.mark.django_db(transaction=True)


def tool_turns(count: int) -> list[dict[str, Any]]:
    """A question, then ``count`` tool calls each answered: 1 + 2 * count messages."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Check every carrier."}]
    for turn in range(count):
        call = f"call_{turn}"
        use = {"type": "tool_use", "id": call, "name": "lookup", "input": {"n": turn}}
        messages += [
            {"role": "assistant", "content": [{"type": "text", "text": f"turn {turn}"}, use]},
            {
                "role": "tool",
                "tool_call_id": call,
                "content": [{"type": "tool_result", "tool_use_id": call, "content": f"{turn}"}],
            },
        ]
    return messages


@pytest.fixture
def long_path(pages: dict[str, str]) -> str:
    """A conversation of 451 messages (three windows) of ``ada``, the user of ``pages``."""
    from django.contrib.auth.models import User

    from conversations import services

    _, results = services.conversation_import(
        owner=User.objects.get(username="ada"),
        format_id="umf",
        payload=tool_turns(225),
        title="A long tool session",
    )
    return f"/conversations/{results[0].conversation.pk}/"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_long_thread_moves_window_by_window(
    browser: Any, live_server: Any, long_path: str, width: int
) -> None:
    with opened_page(browser, viewport={"width": width, "height": 800}) as page:
        log_in(page, live_server.url)
        page.goto(live_server.url + long_path)
        top = page.get_by_role("navigation", name="Windows of the thread (top)")
        expect(top.locator(".where")).to_have_text("Messages 1\u2013200 of 451")
        assert page.locator(".thread .msg").count() == 200
        top.get_by_role("link", name="next \u203a").click()
        expect(top.locator(".where")).to_have_text("Messages 201\u2013400 of 451")
        # message 201 answers the call of message 200: its link leads back to that window
        page.locator('.tool-result-ref a[href$="#call-call_99"]').click()
        expect(top.locator(".where")).to_have_text("Messages 1\u2013200 of 451")
        expect(page.locator("#call-call_99")).to_be_visible()
        bottom = page.get_by_role("navigation", name="Windows of the thread (bottom)")
        bottom.get_by_role("link", name="end \u00bb").click()
        expect(top.locator(".where")).to_have_text("Messages 401\u2013451 of 451")
        page.wait_for_load_state()  # the keys work once the page's script has run
        page.keyboard.press("j")  # the keys move within the window
        assert page.evaluate("document.activeElement.classList.contains('msg')")
        top.get_by_role("link", name="\u00ab start").click()
        expect(top.locator(".where")).to_have_text("Messages 1\u2013200 of 451")
        # no page wider than the screen, whatever the width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.problems == []

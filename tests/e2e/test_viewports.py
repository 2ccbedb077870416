"""Every page fits a phone, a tablet and a laptop: no horizontal scroll at 390, 768 and
1280 px, "Log out" on screen, titles that do not wrap one syllable per line."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import LONG_TITLE, log_in, opened_page, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = [390, 768, 1280]


def overflow(page: Any) -> int:
    """How many pixels the page is wider than its viewport (0: no horizontal scroll)."""
    return int(
        page.evaluate(
            "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
            " - window.innerWidth"
        )
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_fits_the_viewport(
    browser: Any, live_server: Any, pages: dict[str, str], width: int
) -> None:
    with opened_page(browser, viewport={"width": width, "height": 844}) as page:
        page.goto(f"{live_server.url}/accounts/login/")
        too_wide = {"login": overflow(page)}
        log_in(page, live_server.url)
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            too_wide[name] = overflow(page)
            box = page.get_by_role("button", name="Log out").bounding_box()
            assert box is not None, name
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
        assert {name: px for name, px in too_wide.items() if px > 0} == {}
        page.goto(f"{live_server.url}/?sort=title")
        title = page.get_by_role("link", name=LONG_TITLE)
        box = title.bounding_box()
        assert box is not None and box["width"] >= min(width * 0.6, 300), box
        if width != 768:
            suffix = "" if width == 1280 else "-mobile"
            page.goto(f"{live_server.url}/")
            screenshot(page, f"list{suffix}")
            page.goto(f"{live_server.url}{pages['replay'].split('replays/')[0]}")
            screenshot(page, f"conversation{suffix}")

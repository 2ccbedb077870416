"""Every page passes axe-core with no serious or critical violation, on a phone and a laptop,
in light and dark mode; and the landmarks a keyboard or screen-reader user relies on are
there: a skip link to the content, the current page marked in the nav, headings in order."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.conftest import log_in, opened_page

pytestmark = pytest.mark.django_db(transaction=True)

BLOCKING = {"serious", "critical"}
AXE = Axe()


def blocking_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each, with the
    first few elements they were found on."""
    results = AXE.run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in BLOCKING:
            targets = [node["target"] for node in violation["nodes"][:3]]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


def heading_levels(page: Any) -> list[int]:
    tags = page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "els => els.map(e => e.tagName)")
    return [int(tag[1]) for tag in tags]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_has_a_serious_accessibility_violation(
    browser: Any, live_server: Any, pages: dict[str, str], width: int, scheme: str
) -> None:
    viewport = {"width": width, "height": 844}
    with opened_page(browser, viewport=viewport, color_scheme=scheme) as page:
        page.goto(f"{live_server.url}/accounts/login/")
        problems = {"login": blocking_violations(page)}
        log_in(page, live_server.url)
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}")
            problems[name] = blocking_violations(page)
        assert {name: found for name, found in problems.items() if found} == {}


def test_headings_do_not_skip_a_level_and_each_page_has_one_h1(
    page: Any, live_server: Any, pages: dict[str, str]
) -> None:
    log_in(page, live_server.url)
    skipped = {}
    for name, path in pages.items():
        page.goto(f"{live_server.url}{path}")
        levels = heading_levels(page)
        jumps = [(a, b) for a, b in itertools.pairwise(levels) if b > a + 1]
        if levels.count(1) != 1 or jumps:
            skipped[name] = levels
    assert skipped == {}


def test_the_skip_link_is_first_and_takes_the_keyboard_to_the_content(
    page: Any, live_server: Any, pages: dict[str, str]
) -> None:
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/import/")  # the list's search box takes the focus itself
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent.trim()")
    assert focused == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#content"
    assert page.evaluate("document.activeElement.id") == "content"


def test_the_nav_marks_the_current_page(page: Any, live_server: Any, pages: dict[str, str]) -> None:
    log_in(page, live_server.url)
    sections = [("/", "Conversations"), ("/import/", "Import"), (pages["import job"], "Import")]
    for path, current in sections:
        page.goto(f"{live_server.url}{path}")
        marked = page.eval_on_selector_all(
            "header nav [aria-current=page]", "els => els.map(e => e.textContent.trim())"
        )
        assert marked == [current], path


def test_the_code_colours_are_what_the_script_writes() -> None:
    # static/css/pygments.css is generated: an edit by hand would be lost, and the styles
    # were chosen for their contrast (scripts/pygments_css.py).
    script = Path(__file__).resolve().parents[2] / "scripts" / "pygments_css.py"
    checked = subprocess.run([sys.executable, str(script), "--check"], check=False)
    assert checked.returncode == 0, "static/css/pygments.css differs: run scripts/pygments_css.py"

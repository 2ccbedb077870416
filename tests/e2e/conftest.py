"""End-to-end tests: Debian's headless Chromium driven by Playwright against a live server.

No browser download: Playwright launches /usr/bin/chromium (scripts/ensure_chromium.sh
installs it). Tests skip when it is missing, so a machine without it still runs the rest.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("UMF_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
VIEWPORT = {"width": 1280, "height": 800}

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
# still plain synchronous code, so Django's async guard would refuse them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/ensure_chromium.sh")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    problems: list[str] = []
    opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.problems = problems
    yield opened
    context.close()


def screenshot(page: Any, name: str) -> None:
    """Save what the page shows (docs/screenshots/<name>.png, the README's pictures)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))

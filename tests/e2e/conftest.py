"""End-to-end tests: Debian's headless Chromium driven by Playwright against a live server.

No browser download: Playwright launches /usr/bin/chromium (scripts/ensure_chromium.sh
installs it). Tests skip when it is missing, so a machine without it still runs the rest.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
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
DEMO = Path(__file__).resolve().parents[2] / "conversations" / "demo"

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


@contextmanager
def opened_page(browser: Any, **options: Any) -> Iterator[Any]:
    """A page in a browser context of its own (``options``: Playwright's context options,
    such as the viewport or the colour scheme), closed after. ``page.problems`` lists the
    console errors and uncaught exceptions it met."""
    context = browser.new_context(**options)
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    problems: list[str] = []
    opened.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.problems = problems
    try:
        yield opened
    finally:
        context.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with opened_page(browser, viewport=VIEWPORT, accept_downloads=True) as opened:
        yield opened


def screenshot(page: Any, name: str) -> None:
    """Save what the page shows (docs/screenshots/<name>.png, the README's pictures)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


# A title no phone can show on one line: it must wrap between words, not between letters.
LONG_TITLE = (
    "Comparing the incremental materialized view maintenance strategies of PostgreSQL "
    "and ClickHouse for a dashboard of late shipments per carrier"
)


@pytest.fixture
def pages(django_user_model: Any) -> dict[str, str]:
    """Every page a person sees, by name: the list, each demo conversation, a search,
    the import page, an import job, a replay comparison, the trash (holding one
    conversation) and the exports with a finished one (user ``ada``, see :func:`log_in`)."""
    from conversations import models, services
    from conversations.services.export_jobs import export_job_create
    from conversations.services.import_jobs import import_job_create
    from conversations.services.replays import replay_start

    user = django_user_model.objects.create_user(username="ada", password="correct horse")
    for path in sorted(DEMO.glob("*.json")):
        services.conversation_import(
            owner=user,
            format_id=path.name.split(".", 1)[0],
            payload=orjson.loads(path.read_bytes()),
        )
    long = [{"role": "user", "content": "Which one is faster? " + "x" * 300}]
    services.conversation_import(owner=user, format_id="umf", payload=long, title=LONG_TITLE)
    found: dict[str, str] = {
        "list": "/",
        "search": "/?q=umbrella",
        "filtered": "/?format=umf&sort=title",
        "import": "/import/",
        "missing": "/conversations/00000000-0000-0000-0000-000000000000/",
    }
    for conversation in models.Conversation.objects.filter(owner=user):
        found[f"conversation {conversation.title[:30]}"] = f"/conversations/{conversation.pk}/"
    weather = models.Conversation.objects.get(owner=user, title__startswith="What's the weather")
    run = replay_start(
        owner=user, conversation=weather, provider="echo", model="echo-1", mode="each"
    )
    found["replay"] = f"/conversations/{weather.pk}/replays/{run.pk}/"
    upload = io.BytesIO(b'{"messages": [{"role": "user", "content": "uploaded hello"}]}\n')
    job = import_job_create(owner=user, upload=upload, filename="chats.jsonl")
    found["import job"] = f"/import/jobs/{job.pk}/"
    draft = [{"role": "user", "content": "An old draft nobody needs"}]
    _, [trashed] = services.conversation_import(
        owner=user, format_id="umf", payload=draft, title="Old draft"
    )
    services.conversations_trash(owner=user, ids=[trashed.conversation.pk])
    found["trash"] = "/trash/"
    found["exports"] = "/exports/"
    export = export_job_create(owner=user, format_id="sharegpt", filters={"query": "weather"})
    found["export job"] = f"/exports/{export.pk}/"
    return found


def log_in(page: Any, base: str) -> None:
    """Sign in as ``ada``, the user of :func:`pages`."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", "correct horse")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")

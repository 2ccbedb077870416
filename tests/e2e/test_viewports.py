"""Every page fits a phone, a tablet and a laptop: no horizontal scroll at 390, 768 and
1280 px, "Log out" on screen, titles that do not wrap one syllable per line."""

from __future__ import annotations

import io
from typing import Any

import orjson
import pytest

from conversations import models, services
from conversations.services.import_jobs import import_job_create
from conversations.services.replays import replay_start
from tests.e2e.conftest import screenshot
from tests.e2e.test_browser import DEMO

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = [390, 768, 1280]
# A title no phone can show on one line: it must wrap between words, not between letters.
LONG_TITLE = (
    "Comparing the incremental materialized view maintenance strategies of PostgreSQL "
    "and ClickHouse for a dashboard of late shipments per carrier"
)


@pytest.fixture
def pages(django_user_model: Any) -> dict[str, str]:
    """Every page a person sees, by name: the list, each demo conversation, a search,
    the import page, an import job and a replay comparison."""
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
    return found


def log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", "correct horse")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")


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
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
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
    finally:
        context.close()

"""Managing the archive in the browser (issue 20, item 3), at 390 and 1280 px: delete goes
to the trash with an undo on the page that deleted; the trash restores or empties; the
list's bulk bar ticks rows or "all N that match" and deletes or exports them; an export is
a job whose page shows its progress, then its file."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.e2e.conftest import log_in, opened_page, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = [390, 1280]
WEATHER = "What's the weather"


def row(page: Any, title: str) -> Any:
    return page.locator("table.list tbody tr", has_text=title)


def suffix(width: int) -> str:
    return "" if width == 1280 else "-mobile"


@pytest.fixture(params=WIDTHS, ids=lambda width: f"{width}px")
def signed_in(request: pytest.FixtureRequest, browser: Any, live_server: Any, pages: Any) -> Any:
    viewport = {"width": request.param, "height": 844}
    with opened_page(browser, viewport=viewport, accept_downloads=True) as page:
        log_in(page, live_server.url)
        page.width = request.param
        yield page
        assert page.problems == []


def test_delete_from_a_conversation_then_undo(signed_in: Any, live_server: Any) -> None:
    page = signed_in
    page.get_by_role("link", name=WEATHER).first.click()
    page.get_by_role("button", name="Delete").click()
    page.wait_for_url(f"{live_server.url}/")
    page.get_by_text("Moved 1 conversation to the trash.").wait_for()
    assert row(page, WEATHER).count() == 0

    page.get_by_role("button", name="Undo").click()
    page.get_by_text("Restored 1 conversation.").wait_for()
    assert row(page, WEATHER).count() == 1


def test_trash_then_restore_from_the_trash(signed_in: Any, live_server: Any) -> None:
    page = signed_in
    row(page, WEATHER).get_by_role("checkbox").check()
    page.get_by_text("1 ticked").wait_for()
    page.locator("#bulk").get_by_role("button", name="Delete").click()
    page.get_by_text("Moved 1 conversation to the trash.").wait_for()
    if page.width == 1280:
        screenshot(page, "list-undo")

    page.get_by_role("link", name="Open the trash").click()
    assert row(page, WEATHER).count() == 1
    screenshot(page, f"trash{suffix(page.width)}")
    row(page, WEATHER).get_by_role("checkbox").check()
    page.get_by_role("button", name="Restore").click()
    page.get_by_text("Restored 1 conversation.").wait_for()
    assert row(page, WEATHER).count() == 0
    page.goto(f"{live_server.url}/")
    assert row(page, WEATHER).count() == 1


def test_empty_the_trash(signed_in: Any, live_server: Any) -> None:
    from conversations import models

    page = signed_in
    page.goto(f"{live_server.url}/trash/")
    assert row(page, "Old draft").count() == 1
    page.get_by_text("Empty the trash…").click()
    page.get_by_role("button", name="Delete 1 for good").click()
    page.get_by_text("Deleted 1 conversation for good.").wait_for()
    page.get_by_text("The trash is empty.").wait_for()
    assert not models.Conversation.objects.filter(title="Old draft").exists()


def test_select_all_that_match_deletes_every_match(signed_in: Any, live_server: Any) -> None:
    from conversations import models

    page = signed_in
    page.goto(f"{live_server.url}/?q=weather")
    matching = (
        models.Conversation.objects.filter(
            deleted_at__isnull=True, messages__search_text__icontains="weather"
        )
        .distinct()
        .count()
    )
    assert matching >= 2
    page.locator(".list-meta .total").wait_for()
    all_box = page.get_by_role("checkbox", name=f"Select all {matching} that match")
    all_box.check()
    page.get_by_text(f"all {matching} that match", exact=True).wait_for()
    screenshot(page, f"list-bulk{suffix(page.width)}")
    page.locator("#bulk").get_by_role("button", name="Delete").click()
    page.get_by_text(f"Moved {matching} conversations to the trash.").wait_for()
    assert page.locator("table.list tbody tr td.title-cell").count() == 0
    assert models.Conversation.objects.filter(deleted_at__isnull=False).count() == matching + 1


def test_export_these_results(signed_in: Any, live_server: Any) -> None:
    page = signed_in
    page.goto(f"{live_server.url}/?q=weather")
    page.locator(".list-meta .total").wait_for()
    page.get_by_role("checkbox", name="that match").check()
    page.get_by_label("as").select_option("sharegpt")
    page.locator("#bulk").get_by_role("button", name="Export").click()
    page.get_by_role("heading", name="Exported as sharegpt").wait_for()
    screenshot(page, f"export-job{suffix(page.width)}")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download conversations.json").click()
    exported = orjson.loads(Path(download.value.path()).read_bytes())
    assert len(exported) >= 2
    assert all("conversations" in entry for entry in exported)


def test_export_all_as_a_zip(signed_in: Any, live_server: Any) -> None:
    from conversations import models

    page = signed_in
    page.get_by_role("link", name="Export all").click()
    page.get_by_label("Format").select_option("anthropic")
    page.get_by_role("button", name="Export all").click()
    page.get_by_role("heading", name="Exported as anthropic").wait_for()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download conversations-anthropic.zip").click()
    names = zipfile.ZipFile(download.value.path()).namelist()
    assert len(names) == models.Conversation.objects.filter(deleted_at__isnull=True).count()

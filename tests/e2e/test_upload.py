"""An upload from the import page, in Chromium: the file goes up with a progress bar (one
request from the page's script, not a page load), the job's page follows it, and a file
that cannot be imported is refused in place with the reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import log_in

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_upload_shows_its_progress_and_lands_on_the_job(
    page: Any, live_server: Any, pages: dict[str, str], tmp_path: Path
) -> None:
    dataset = tmp_path / "chats.jsonl"
    dataset.write_bytes(
        b"".join(
            b'{"messages": [{"role": "user", "content": "upload %d"}]}\n' % i for i in range(20)
        )
    )
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/import/")
    posts: list[str] = []
    page.on(
        "request",
        lambda request: posts.append(request.resource_type) if request.method == "POST" else None,
    )
    page.set_input_files("#upload-form input[type=file]", str(dataset))
    page.click("#upload-form button[type=submit]")
    page.wait_for_url("**/import/jobs/**")
    assert posts == ["xhr"]  # sent by the script, with upload progress
    assert page.get_by_role("heading", name="Imported chats.jsonl").is_visible()
    assert page.locator("table.list tbody tr").count() == 20
    assert page.problems == []


def test_a_file_that_cannot_be_imported_is_refused_in_place(
    page: Any, live_server: Any, pages: dict[str, str], tmp_path: Path
) -> None:
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/import/")
    page.set_input_files("#upload-form input[type=file]", str(empty))
    page.click("#upload-form button[type=submit]")
    alert = page.locator("#upload-form [role=alert]")
    alert.wait_for()
    assert page.url.endswith("/import/")
    assert "the file is a .png file (image/png), not conversations" in alert.inner_text()

"""A person's way through the archive in a real browser: log in, search, read, expand,
switch branches, export, import, replay and compare. Nothing here needs the internet."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from playwright.sync_api import expect

from conversations import models, services
from tests.conftest import load_fixture
from tests.e2e.conftest import DEMO, screenshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def person(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user(username="ada", password="correct horse")
    for path in sorted(DEMO.glob("*.json")):
        services.conversation_import(
            owner=user,
            format_id=path.name.split(".", 1)[0],
            payload=orjson.loads(path.read_bytes()),
        )
    return user


def log_in(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    screenshot(page, "login")
    page.fill("#id_username", "ada")
    page.fill("#id_password", "correct horse")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def conversation_url(live_server: Any, title_start: str) -> str:
    found = models.Conversation.objects.get(title__startswith=title_start)
    return f"{live_server.url}/conversations/{found.pk}/"


def test_search_and_read(page: Any, live_server: Any, person: Any) -> None:
    log_in(page, live_server)
    assert page.locator("table.list tbody tr").count() == 8
    screenshot(page, "list")
    page.fill("input[name=q]", "umbrella")
    page.press("input[name=q]", "Enter")
    page.wait_for_selector(".snippet mark")
    assert page.locator("table.list tbody tr").count() == 1
    screenshot(page, "search")
    page.click("table.list tbody a")
    page.wait_for_url(re.compile(r"/conversations/.+\?leaf=.+#m-"))
    assert page.locator("article.msg").count() >= 2
    assert not page.problems, page.problems


def test_tool_calls_thinking_and_branches(page: Any, live_server: Any, person: Any) -> None:
    log_in(page, live_server)
    page.goto(conversation_url(live_server, "What's the weather in Paris"))
    call = page.locator("details.tool-call").first
    assert not call.locator(".tool-body").is_visible()
    call.locator("summary").click()
    assert call.locator(".tool-body").is_visible()
    assert "Paris" in call.locator(".tool-body").inner_text()
    screenshot(page, "conversation-tools")
    page.goto(conversation_url(live_server, "How many orders shipped late"))
    thinking = page.locator("details.thinking").first
    assert not thinking.locator(".thinking-text").is_visible()
    thinking.locator("summary").click()
    assert thinking.locator(".thinking-text").is_visible()
    screenshot(page, "conversation-thinking")
    page.goto(conversation_url(live_server, "Haiku drafts"))
    switcher = page.locator("nav.siblings").first
    assert switcher.locator(".count").inner_text() == "3/3"
    switcher.get_by_label("previous branch").click()
    page.wait_for_url(re.compile(r"leaf="))
    assert page.locator("nav.siblings .count").first.inner_text() == "2/3"
    assert page.get_by_text("autovacuum").count() >= 1  # the branch that went on
    screenshot(page, "conversation-branches")
    assert not page.problems, page.problems


def test_export_with_warnings_first(page: Any, live_server: Any, person: Any) -> None:
    log_in(page, live_server)
    page.goto(conversation_url(live_server, "Umbrella"))
    page.wait_for_selector("#export-warnings .ok-text")
    page.select_option("#id_format", "openai-chat")
    page.wait_for_selector("#export-warnings .warn-text, #export-warnings .ok-text")
    page.select_option("#id_format", "anthropic")
    page.wait_for_selector("#export-warnings .warn-text")
    with page.expect_download() as download_info:
        page.click("#export button[type=submit]")
    download = download_info.value
    assert download.suggested_filename.endswith(".anthropic.json")
    payload = orjson.loads(Path(download.path()).read_bytes())
    assert payload["messages"]
    screenshot(page, "export")
    assert not page.problems, page.problems


def test_import_paste_and_upload(page: Any, live_server: Any, person: Any, tmp_path: Path) -> None:
    log_in(page, live_server)
    page.goto(f"{live_server.url}/import/")
    legacy = orjson.dumps(load_fixture("openai-chat/legacy_functions.json")).decode()
    page.fill("#paste-form textarea", legacy)
    page.click("#paste-form button[type=submit]")
    page.wait_for_selector(".ok-card")
    assert "openai-chat" in page.locator(".ok-card").inner_text()
    page.locator(".ok-card details.warn summary").first.click()
    screenshot(page, "import")
    upload = tmp_path / "conversations.jsonl"
    upload.write_bytes(
        orjson.dumps({"messages": [{"role": "user", "content": "uploaded hello"}]}) + b"\n"
    )
    page.set_input_files("#upload-form input[type=file]", str(upload))
    page.select_option("#upload-form select", "openai-finetune")
    page.click("#upload-form button[type=submit]")
    page.wait_for_url(re.compile(r"/import/jobs/"))
    page.wait_for_selector(".badge.status-succeeded")
    assert "1 created" in page.inner_text("#job-status")
    screenshot(page, "import-job")
    assert not page.problems, page.problems


def test_replay_and_compare(page: Any, live_server: Any, person: Any) -> None:
    log_in(page, live_server)
    page.goto(conversation_url(live_server, "What's the weather in Paris"))
    page.click("#replay summary")
    page.select_option("#replay select[name=provider]", "echo")
    page.fill("#replay input[name=model]", "echo-1")
    page.select_option("#replay select[name=mode]", "each")
    page.click("#replay button[type=submit]")
    page.wait_for_url(re.compile(r"/replays/"))
    page.wait_for_selector("article.turn")
    assert page.locator("article.turn").count() >= 2
    assert page.locator(".diff-body").first.is_visible()
    assert "latency ms" in page.inner_text("article.turn >> nth=0")
    # The request each turn sent, rebuilt from its delta when its box opens.
    page.click("article.turn >> nth=1 >> details.turn-request summary")
    request = page.wait_for_selector("article.turn >> nth=1 >> pre.request-json")
    assert request is not None and '"messages"' in request.inner_text()
    screenshot(page, "replay-comparison")
    page.click(".crumbs a")
    # the replays are branches now (waited for: the click starts a navigation)
    expect(page.locator("nav.siblings").first).to_be_visible()
    assert not page.problems, page.problems

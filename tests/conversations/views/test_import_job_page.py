"""The page of an import job, as a person follows it: a heading that says what happened,
results numbered from 1 in pages of 100, and the failed ones on their own."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from conversations import models
from conversations.services.import_jobs import import_job_create
from tests.conversations.helpers import html, logged_in, run_upload

pytestmark = pytest.mark.django_db


def lines(count: int, broken: set[int]) -> bytes:
    """A JSONL dataset of ``count`` conversations; the lines in ``broken`` are not one."""
    rows = []
    for index in range(count):
        if index in broken:
            rows.append(b'{"messages": "not a list"}')
        else:
            rows.append(b'{"messages": [{"role": "user", "content": "line %d"}]}' % index)
    return b"\n".join(rows) + b"\n"


def numbers(page: str) -> list[int]:
    """The numbers of the result rows a page shows."""
    return [int(n) for n in re.findall(r"<tr><td>(\d+)</td>", page)]


@pytest.fixture
def finished_job(api: APIClient, alice: Any, django_capture_on_commit_callbacks: Any) -> str:
    job = run_upload(
        api,
        django_capture_on_commit_callbacks,
        "chats.jsonl",
        lines(250, {4, 180}),
        "openai-finetune",
    )
    assert (job["status"], job["created"], job["failed"]) == ("succeeded", 248, 2)
    return str(job["id"])


def test_a_finished_job_says_so_and_numbers_its_results_from_one(
    alice: Any, finished_job: str
) -> None:
    page = html(logged_in(alice).get(f"/import/jobs/{finished_job}/"))
    assert "<h1>Imported chats.jsonl</h1>" in page
    assert "Importing" not in page
    assert numbers(page) == list(range(1, 101))
    assert "Page 1 of 3" in page and "Next →" in page and "← Previous" not in page


def test_every_result_is_reachable_page_by_page(alice: Any, finished_job: str) -> None:
    client = logged_in(alice)
    shown = []
    for page in (1, 2, 3):
        shown += numbers(html(client.get(f"/import/jobs/{finished_job}/?page={page}")))
    assert shown == list(range(1, 251))
    # Out of range or not a number: the nearest page, not an error.
    assert numbers(html(client.get(f"/import/jobs/{finished_job}/?page=99")))[0] == 201
    assert numbers(html(client.get(f"/import/jobs/{finished_job}/?page=x")))[0] == 1


def test_failed_only_shows_the_failed_lines_at_their_place_in_the_file(
    alice: Any, finished_job: str
) -> None:
    page = html(logged_in(alice).get(f"/import/jobs/{finished_job}/?failed=1"))
    assert numbers(page) == [5, 181]
    assert 'aria-current="page">Failed only (2)' in page
    assert page.count('class="badge status-failed"') == 2


def test_a_running_job_shows_its_progress_and_polls(alice: Any) -> None:
    job = import_job_create(owner=alice, upload=_file(lines(3, set())), filename="big.jsonl")
    assert models.ImportJob.objects.get(pk=job.pk).status == "queued"  # not run: no commit
    page = html(logged_in(alice).get(f"/import/jobs/{job.pk}/"))
    assert "<h1>Importing big.jsonl…</h1>" in page
    assert '<progress class="job-progress"' in page
    assert 'hx-trigger="every 1s"' in page
    assert "<table" not in page


def test_a_failed_job_says_it_failed(alice: Any) -> None:
    job = import_job_create(owner=alice, upload=_file(b"x"), filename="odd.bin")
    models.ImportJob.objects.filter(pk=job.pk).update(
        status="failed", error="not a file of conversations"
    )
    page = html(logged_in(alice).get(f"/import/jobs/{job.pk}/"))
    assert "<h1>Import of odd.bin failed</h1>" in page
    assert "not a file of conversations" in page


def _file(content: bytes) -> Any:
    return io.BytesIO(content)

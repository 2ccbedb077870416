"""Export jobs over the API: create one (a format and a filter, a list of ids, or the whole
archive), follow its progress, download its file (the one file of many the export command
writes, or a zip of one file per conversation); a job always ends, and a file is its
owner's only."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import orjson
import pytest
from rest_framework.test import APIClient

from conversations import export_files, models, selectors
from conversations.services import export_jobs
from providers import formats

pytestmark = pytest.mark.django_db


def run_export(api: APIClient, capture: Any, body: dict[str, Any]) -> dict[str, Any]:
    """Create the job with its task run in-process; the job as the API shows it after."""
    with capture(execute=True):
        created = api.post("/api/v1/exports", body, format="json")
    assert created.status_code == 202, created.content
    job = api.get(f"/api/v1/exports/{created.json()['id']}")
    assert job.status_code == 200
    return dict(job.json())


def download(api: APIClient, job: dict[str, Any]) -> bytes:
    assert job["download"] == f"http://testserver/api/v1/exports/{job['id']}/download"
    response = api.get(job["download"])
    assert response.status_code == 200
    # Named as what it is, so that a browser or a client opens it right.
    suffix = job["filename"].rsplit(".", 1)[1]
    assert response["Content-Type"] == DOWNLOAD_TYPES[suffix]
    assert response["Content-Disposition"] == f'attachment; filename="{job["filename"]}"'
    return b"".join(response.streaming_content)  # type: ignore[attr-defined]


DOWNLOAD_TYPES = {
    "json": "application/json",
    "jsonl": "application/jsonl",
    "zip": "application/zip",
}


def test_export_these_results_writes_the_matching_ones_as_one_file(
    api: APIClient, alice: Any, archive: dict[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    job = run_export(
        api, django_capture_on_commit_callbacks, {"format": "sharegpt", "filter": {"q": "umbrella"}}
    )
    assert (job["status"], job["total"], job["processed"]) == ("succeeded", 1, 1)
    assert job["filename"] == "conversations.json"
    found = models.Conversation.objects.get(pk=archive["weather"])
    umf = selectors.conversation_umf(conversation=found).umf
    expected = formats.get("sharegpt").render_all([umf])
    assert download(api, job) == export_files.encode(expected.payload)
    # What sharegpt could not hold is said, not only counted.
    assert job["warning_count"] == len(expected.warnings) > 0
    categories = {w.category for w in expected.warnings}
    assert set(job["warnings"]["categories"]) == categories
    assert sum(job["warnings"]["categories"].values()) == job["warning_count"]
    first = expected.warnings[0]
    assert job["warnings"]["examples"][0]["message"] == first.message
    api.force_login(alice)  # the job's page, as its owner sees it
    page = api.get(f"/exports/{job['id']}/").content.decode()
    assert "What sharegpt could not hold" in page and first.category in page


def test_export_all_in_a_format_of_one_is_a_zip_of_every_conversation(
    api: APIClient, archive: dict[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    api.post("/api/v1/trash", {"ids": [archive["search"]]}, format="json")
    job = run_export(api, django_capture_on_commit_callbacks, {"format": "anthropic"})
    assert (job["status"], job["total"]) == ("succeeded", 2)  # not the trashed one
    zipped = zipfile.ZipFile(io.BytesIO(download(api, job)))
    assert sorted(zipped.namelist()) == sorted(f"{archive[k]}.json" for k in ("weather", "rust"))
    assert "messages" in orjson.loads(zipped.read(f"{archive['rust']}.json"))


def test_export_by_ids(
    api: APIClient, archive: dict[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    body = {"format": "openai-finetune", "ids": [archive["weather"], archive["rust"]]}
    job = run_export(api, django_capture_on_commit_callbacks, body)
    assert job["total"] == 2
    assert len(download(api, job).decode().strip().splitlines()) == 2


def test_the_file_waits_for_the_job_with_a_409(api: APIClient, archive: dict[str, str]) -> None:
    created = api.post("/api/v1/exports", {"format": "umf"}, format="json").json()
    assert created["status"] == "queued" and created["download"] is None
    response = api.get(f"/api/v1/exports/{created['id']}/download")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_ready"


def test_a_job_that_fails_ends_failed_with_its_reason_and_no_file(
    api: APIClient,
    archive: dict[str, str],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: Any) -> Any:
        raise ValueError("the disk is on fire")

    monkeypatch.setattr(export_files, "write_many", broken)
    job = run_export(api, django_capture_on_commit_callbacks, {"format": "sharegpt"})
    assert job["status"] == "failed"
    assert "the disk is on fire" in job["error"]
    assert not models.Upload.objects.exists()


def test_a_job_whose_worker_vanished_is_ended_by_the_reconciler(
    api: APIClient, archive: dict[str, str]
) -> None:
    created = api.post("/api/v1/exports", {"format": "umf"}, format="json").json()
    past = models.ExportJob.objects.get(pk=created["id"]).created_at
    models.ExportJob.objects.filter(pk=created["id"]).update(
        status="running", lease_expires_at=past
    )
    assert export_jobs.export_job_reconcile() == 1
    job = api.get(f"/api/v1/exports/{created['id']}").json()
    assert job["status"] == "failed"
    assert "worker stopped" in job["error"]


def test_the_list_shows_the_owner_s_jobs(api: APIClient, bob_api: APIClient) -> None:
    created = api.post("/api/v1/exports", {"format": "umf"}, format="json").json()
    assert [job["id"] for job in api.get("/api/v1/exports").json()] == [created["id"]]
    assert bob_api.get("/api/v1/exports").json() == []

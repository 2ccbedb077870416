"""Import, export and replay from the pages, and the query counts of the big pages."""

from __future__ import annotations

import io
import re
from typing import Any

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from conversations import models
from tests.conftest import load_fixture, token_client
from tests.conversations.helpers import (
    html,
    logged_in,
    replayed_from_page,
    store,
    tool_conversation,
)

pytestmark = pytest.mark.django_db


def test_paste_import_shows_the_warnings(alice: Any) -> None:
    payload = orjson.dumps(load_fixture("openai-chat/legacy_functions.json")).decode()
    page = html(logged_in(alice).post("/import/", {"format": "auto", "payload": payload}))
    assert "Read as" in page and "openai-chat" in page
    assert "id-synthesized" in page
    assert models.Conversation.objects.filter(owner=alice).count() == 1


def test_paste_import_errors_are_shown(alice: Any) -> None:
    client = logged_in(alice)
    assert "not valid JSON" in html(client.post("/import/", {"format": "umf", "payload": "{"}))
    page = html(client.post("/import/", {"format": "anthropic", "payload": '{"x": 1}'}))
    assert 'class="error"' in page
    assert models.Conversation.objects.count() == 0


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        # PostgreSQL cannot store a NUL: this was a 500 before the API's rules applied here.
        ('[{"role": "user", "content": "a\\u0000b"}]', "NUL character"),
        ('[{"role": "user", "role": "assistant", "content": "a"}]', "duplicate key at [0].role"),
        ('{"model": "m", "seed": 123456789012345678901234567890, "messages": []}', "64 bits"),
    ],
)
def test_a_pasted_payload_follows_the_apis_json_rules(
    alice: Any, payload: str, message: str
) -> None:
    response = logged_in(alice).post("/import/", {"format": "openai-chat", "payload": payload})
    assert response.status_code == 200
    page = html(response)
    assert 'class="error"' in page and message in page
    assert models.Conversation.objects.count() == 0


def test_upload_runs_a_job_and_shows_its_progress(alice: Any, bob: Any, capture: Any) -> None:
    body = orjson.dumps(load_fixture("umf/weather-tools.json"))
    upload = io.BytesIO(body)
    upload.name = "weather.json"
    with capture(execute=True):
        response = logged_in(alice).post("/import/", {"format": "auto", "file": upload})
    assert response.status_code == 302
    job = models.ImportJob.objects.get(owner=alice)
    assert response["Location"] == f"/import/jobs/{job.pk}/"
    page = html(logged_in(alice).get(response["Location"]))
    assert "succeeded" in page and "1 created" in page
    fragment = html(logged_in(alice).get(f"/import/jobs/{job.pk}/status/"))
    assert "hx-trigger" not in fragment  # finished: no more polling


def test_a_running_job_polls(alice: Any) -> None:
    job = models.ImportJob.objects.create(owner=alice, filename="big.json")
    page = html(logged_in(alice).get(f"/import/jobs/{job.pk}/"))
    assert 'hx-trigger="every 1s"' in page


def test_export_download_equals_the_api_export(alice: Any) -> None:
    conversation = store(alice, load_fixture("umf/weather-tools.json"))
    response = logged_in(alice).get(f"/conversations/{conversation.pk}/export/?format=anthropic")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert ".anthropic.json" in response["Content-Disposition"]
    api = token_client(alice).get(
        f"/api/v1/conversations/{conversation.pk}/export?format=anthropic"
    )
    assert orjson.loads(response.content) == api.json()["payload"]
    bad = logged_in(alice).get(f"/conversations/{conversation.pk}/export/?format=nope")
    assert bad.status_code == 404


def test_export_warnings_fragment(alice: Any) -> None:
    conversation = store(alice, load_fixture("umf/weather-tools.json"))
    client = logged_in(alice)
    lossy = html(client.get(f"/conversations/{conversation.pk}/export/warnings/?format=anthropic"))
    # A loss is a warning, listed first; a fact the format has no place for is a note.
    assert "cannot hold everything: 1 warning and 1 note" in lossy
    assert lossy.index('class="badge warn">role-merged') < lossy.index(
        'class="badge note">content-dropped'
    )
    same = html(client.get(f"/conversations/{conversation.pk}/export/warnings/?format=umf"))
    assert "without loss" in same


@pytest.fixture
def capture(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def test_replay_from_the_page_and_compare(alice: Any, capture: Any) -> None:
    conversation = store(alice, tool_conversation(2, "r"))
    client = logged_in(alice)
    with capture(execute=True):
        response = client.post(
            f"/conversations/{conversation.pk}/replays/",
            {"provider": "echo", "model": "echo-1", "mode": "each", "temperature": "0.5"},
        )
    assert response.status_code == 302
    run = models.ReplayRun.objects.get(conversation=conversation)
    assert run.status == "succeeded" and run.parameters == {"temperature": 0.5}
    page = html(client.get(response["Location"]))
    assert "Turn 1" in page and "Turn 2" in page
    assert ("Text diff" in page and "<del>" in page) or "<ins>" in page
    assert "latency ms" in page
    status = client.get(f"/conversations/{conversation.pk}/replays/{run.pk}/status/")
    assert status["HX-Refresh"] == "true"
    detail = html(client.get(f"/conversations/{conversation.pk}/"))
    assert ">1/2<" in detail  # the replayed turn is now a sibling of the original
    replayed = models.Message.objects.filter(replay_run=run).first()
    assert replayed is not None
    branch = html(client.get(f"/conversations/{conversation.pk}/?leaf={replayed.pk}"))
    assert ">2/2<" in branch and "replayed" in branch, re.findall(r">\d/\d<", branch)


def test_replay_form_errors_come_back_as_a_message(alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "x"))
    client = logged_in(alice)
    response = client.post(
        f"/conversations/{conversation.pk}/replays/", {"provider": "nope", "model": "m"}
    )
    assert response.status_code == 302
    page = html(client.get(response["Location"]))
    assert "Replay not started" in page
    assert not models.ReplayRun.objects.exists()


def test_the_replay_form_keeps_what_was_typed_after_an_error(alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "x"))
    client = logged_in(alice)
    typed = {"provider": "echo", "model": "o1-pro", "mode": "each", "temperature": "0.4"}
    response = client.post(f"/conversations/{conversation.pk}/replays/", typed)
    assert response["Location"].endswith("#replay")
    page = html(client.get(response["Location"]))
    assert "Replay not started: model &#x27;o1-pro&#x27; is not offered by echo" in page
    assert '<details class="card" id="replay" open>' in page
    assert 'name="model" value="o1-pro"' in page
    assert '<option value="each" selected>' in page
    assert 'value="0.4"' in page
    # Once: the next view of the page starts afresh.
    again = html(client.get(f"/conversations/{conversation.pk}/"))
    assert 'name="model" value="echo-1"' in again
    assert '<details class="card" id="replay">' in again


def test_the_replay_form_says_what_echo_is_and_how_to_add_a_provider(alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "x"))
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    assert "Only <code>echo</code> is set up: it answers offline, without a key" in page
    assert "<code>OPENAI_API_KEY</code>" in page


def test_replay_parameters_with_a_nul_are_a_form_error_not_a_500(alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "x"))
    client = logged_in(alice)
    response = client.post(
        f"/conversations/{conversation.pk}/replays/",
        {"provider": "echo", "model": "echo-1", "parameters": '{"user": "a\\u0000b"}'},
    )
    assert response.status_code == 302
    page = html(client.get(response["Location"]))
    assert "Replay not started" in page and "NUL character" in page
    assert not models.ReplayRun.objects.exists()


def test_a_running_replay_polls(alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "p"))
    run = models.ReplayRun.objects.create(
        owner=alice, conversation=conversation, provider="echo", model="echo-1"
    )
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/replays/{run.pk}/"))
    assert 'hx-trigger="every 1s"' in page
    status = logged_in(alice).get(f"/conversations/{conversation.pk}/replays/{run.pk}/status/")
    assert "HX-Refresh" not in status


def count_queries(client: Any, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return len(captured.captured_queries)


# session, user, then the page's own: the list (page rows and models of those rows) and
# the search adds the look in the search index and the snippets; the conversation page
# runs conversation, the path's version and (at its first view) the path itself, the
# window's messages, the branches around them, their blocks, warnings, provenance, tools
# and the latest replay runs.
LIST_QUERIES, SEARCH_QUERIES, DETAIL_QUERIES = 4, 6, 12


def test_list_queries_are_fixed(alice: Any, django_assert_num_queries: Any) -> None:
    store(alice, tool_conversation(1, "a"))
    client = logged_in(alice)
    few = count_queries(client, "/")
    for index in range(15):
        store(alice, tool_conversation(2, f"b{index}"))
    with django_assert_num_queries(LIST_QUERIES):
        client.get("/?sort=messages&tool=lookup&warnings=no")
    assert few == LIST_QUERIES
    with django_assert_num_queries(SEARCH_QUERIES):
        client.get("/?q=turn")


def test_conversation_page_queries_do_not_grow(alice: Any, django_assert_num_queries: Any) -> None:
    small = store(alice, tool_conversation(1, "s"))
    large = store(alice, tool_conversation(80, "l"))
    client = logged_in(alice)
    assert count_queries(client, f"/conversations/{small.pk}/") == DETAIL_QUERIES
    with django_assert_num_queries(DETAIL_QUERIES):
        client.get(f"/conversations/{large.pk}/")


def test_comparison_queries_do_not_grow(alice: Any, capture: Any) -> None:
    counts = []
    for turns in (1, 6):
        conversation = store(alice, tool_conversation(turns, f"c{turns}"))
        with capture(execute=True):
            logged_in(alice).post(
                f"/conversations/{conversation.pk}/replays/",
                {"provider": "echo", "model": "echo-1", "mode": "each"},
            )
        run = models.ReplayRun.objects.get(conversation=conversation)
        counts.append(
            count_queries(logged_in(alice), f"/conversations/{conversation.pk}/replays/{run.pk}/")
        )
    assert counts[0] == counts[1]


def test_the_comparison_shows_each_request_rebuilt_as_it_was_sent(
    alice: Any, bob: Any, capture: Any
) -> None:
    conversation = store(alice, tool_conversation(3, "q"))
    client = logged_in(alice)
    run = replayed_from_page(client, capture, conversation, "each")
    base = f"/conversations/{conversation.pk}/replays/{run.pk}/"
    page = html(client.get(base))
    assert page.count('class="turn-request"') == 3
    assert f'hx-get="{base}turns/2/request/"' in page
    sent = api_turns(alice, run)[2]["request"]
    whole = client.get(f"{base}turns/2/request/")
    assert whole["Content-Type"] == "application/json"
    assert orjson.loads(whole.content) == sent
    fragment = html(client.get(f"{base}turns/2/request/", headers={"HX-Request": "true"}))
    assert "turn 2 with `code`" not in fragment  # the prefix stops before the third answer
    assert "turn 1 with `code`" in fragment
    assert "request-json" in fragment
    assert client.get(f"{base}turns/9/request/").status_code == 404
    assert logged_in(bob).get(f"{base}turns/2/request/").status_code == 404


def api_turns(user: Any, run: Any) -> list[dict[str, Any]]:
    return list(token_client(user).get(f"/api/v1/replays/{run.pk}").json()["turns"])

"""Schema fuzzing: schemathesis generates requests for every operation of ``/api/schema/``
and runs all its checks on each answer: no 5xx, every status and body as documented,
schema-valid requests accepted and schema-violating ones refused.

Kept cheap enough for ``make test``: one pytest item per operation (so xdist spreads them),
each running its examples inside one database transaction (no flush between cases),
derandomized and without Hypothesis' example database, so a run is repeatable.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, assume, settings
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import ignored_auth

EXAMPLES_PER_OPERATION = 100

# The schema promises a well-formed request, not that a payload is the format it names:
# 422 (valid JSON, not that format; an unknown cursor; a file that is no archive nor text)
# is a legitimate answer to schema-valid data, and 413 (too large) to schema-violating data.
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]
            },
            "negative_data_rejection": {
                "expected-statuses": [
                    *("400", "401", "403", "404", "405", "406"),
                    *("409", "413", "415", "422", "428", "429"),
                ]
            },
        }
    }
)
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG)


@pytest.fixture
def keep_connection() -> Iterator[None]:
    # The WSGI handler closes the database connection around each request, which would
    # end the test's transaction; Django's test client disconnects the same handler.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def auth_headers(alice: Any, settings: Any, keep_connection: None) -> dict[str, str]:
    # Hundreds of imports a minute are the point here, not a client to slow down.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"imports": "100000/min", "replays": "100000/min"},
    }
    token, _ = Token.objects.get_or_create(user=alice)
    return {"Authorization": f"Token {token.key}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api(case: Any, auth_headers: dict[str, str]) -> None:
    if case.media_type == "multipart/form-data" and isinstance(case.body, dict):
        # Werkzeug's test client encodes an empty form field without its closing line
        # break, and the part is then lost: the server never sees the case as generated.
        assume("" not in case.body.values())
    case.call_and_validate(headers=auth_headers)


# The stateful phase: schemathesis chains the operations along the links it infers from
# the schema (list -> read, export, delete, replay; replay -> its run). Every run of the
# machine starts from the same small archive, so what a step can draw does not depend on
# what an earlier run deleted.
STATEFUL_EXAMPLES = 60
Workflow: Any = schema.as_state_machine()


@pytest.mark.django_db(transaction=True)
def test_api_stateful(alice: Any, auth_headers: dict[str, str]) -> None:
    from tests.conversations.helpers import TREE, store, tool_conversation

    def reset_archive() -> None:
        alice.conversations.all().delete()
        for index in range(2):
            store(alice, tool_conversation(2, f"t{index}"))
        store(alice, TREE, format_id="umf")

    class AliceWorkflow(Workflow):  # type: ignore[misc]
        def setup(self) -> None:
            reset_archive()

        def before_call(self, case: Any) -> None:
            case.headers = {**(case.headers or {}), **auth_headers}

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            # The machine sends a made-up session cookie beside the valid token, which
            # the API rightly accepts (either scheme will do): the ignored-auth check
            # would read that as auth ignored. test_api above runs that check.
            case.validate_response(
                response,
                additional_checks=additional_checks,
                excluded_checks=[ignored_auth],
                transport_kwargs=kwargs,
            )

    AliceWorkflow.run(
        settings=settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=6,
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )

"""The schema and the server agree: schemathesis generates requests from
``/api/schema/`` (valid ones and broken ones) for every operation and runs
its checks on the answers: no 5xx, only documented status codes and content
types, answers that match their schemas, and whatever the schema forbids
(a wrong type, a missing or unknown field) refused.

One check is left out: "schema-valid data is accepted". A schema cannot say
which moves are legal in a position, which models are on disk, which
options a game has or whose turn it is; the server refuses those with 400
and an explaining body, as documented, and that check would call each a
failure.

Bounded: a fixed number of examples an operation, derandomized (the same
requests every run), in-process through the WSGI app. 50 rather than
hypothesis's usual 100: the test was the suite's longest (134 s under CI's
load), and half the examples take half the time (26 s against 57 s alone);
test_fuzz throws broken input at the same endpoints.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

EXAMPLES = 50

schema = schemathesis.openapi.from_wsgi(
    "/api/schema/",
    get_wsgi_application(),
    headers={"Accept": "application/vnd.oai.openapi+json"},
)


# Each request closes its database connection, as under a real server.
@pytest.mark.django_db(transaction=True)
@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_matches_its_schema(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


def test_the_schema_names_the_seat_token_and_when_to_retry():
    # A client made from the schema knew neither (QA): the docs page's "Try
    # it out" could send no seat token.
    answer = Client().get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    document = json.loads(answer.content)
    scheme = document["components"]["securitySchemes"]["SeatToken"]
    assert (scheme["type"], scheme["in"], scheme["name"]) == (
        "apiKey",
        "header",
        "X-Seat-Token",
    )
    moves = document["paths"]["/api/games/{id}/moves/"]["post"]
    assert moves["security"] == [{}, {"SeatToken": []}]
    hint = document["paths"]["/api/games/{id}/hint/"]["post"]
    for code in ("429", "503"):
        assert "Retry-After" in hint["responses"][code]["headers"], code

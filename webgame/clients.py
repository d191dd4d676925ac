"""Who is asking: the client a request comes from, for the AI's fair sharing.

A client is its address, as the throttles see it: the socket's peer, or the
address ``NUM_PROXIES`` trusted reverse proxies put in X-Forwarded-For; for
IPv6, its /64 prefix (one host is commonly given a whole /64, so addresses
inside it cost nothing: the prefix is the client, as for lichess). Not
the session: there are no accounts, and a script that drops its cookies would
be a new client on every request. (Players behind one NAT share a client;
the limits are sized for that.)

:class:`ClientMiddleware` notes the client of each request in a context
variable, so that the services can read it without every view and service
signature passing it along; and logs each refusal (a 4xx) with its client
and error code, which uvicorn's access log cannot give (behind a proxy it
names the proxy): :func:`log_refusal`, which the sockets' refusals use too.
"""

from __future__ import annotations

import contextvars
import ipaddress
import json
import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import BaseThrottle

log = logging.getLogger(__name__)

#: The client of the request being served ("" outside a request: commands, tests).
CURRENT: contextvars.ContextVar[str] = contextvars.ContextVar("client", default="")


def client_of(request: HttpRequest) -> str:
    """Return the client's name: its address, proxies accounted for; an IPv6
    address as its /64 prefix."""
    # get_ident reads only request.META, which a Django request has too.
    address = BaseThrottle().get_ident(request) or ""  # type: ignore[arg-type]
    return client_name(address)


def client_name(address: str) -> str:
    """Return the client an address belongs to: the address (IPv4, or not an
    address at all), or the /64 network of an IPv6 address."""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:  # ::ffff:a.b.c.d is that IPv4 host
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def current_client() -> str:
    """Return the client of the request being served, "" outside one."""
    return CURRENT.get()


class ClientMiddleware:
    """Make the request's client the :func:`current_client` while it is
    served, and log its refusal if it is refused."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        client = client_of(request)
        token = CURRENT.set(client)
        try:
            response = self.get_response(request)
        finally:
            CURRENT.reset(token)
        if 400 <= response.status_code < 500:
            log_refusal(
                request.method or "-",
                request.path,
                client,
                response.status_code,
                error_code(response),
            )
        return response


def log_refusal(method: str, path: str, client: str, status: int, code: str) -> None:
    """Log a refused request or socket (``method`` "WebSocket"): ``refused
    POST /api/games/ from 203.0.113.5: 429 throttled``."""
    # Escaped as Django's own request log does: a path decoded from %0a
    # would otherwise write a line of the sender's choosing.
    method, path, client, code = (
        word.encode("unicode_escape").decode("ascii")
        for word in (method, path, client, code)
    )
    log.info("refused %s %s from %s: %s %s", method, path, client, status, code)


def error_code(response: HttpResponse) -> str:
    """Return the API's error code in ``response`` ("-" if it has none)."""
    data = getattr(response, "data", None)  # the API's, before it was JSON
    if isinstance(data, dict):
        return str(data.get("error", "-"))
    if response.get("Content-Type", "").startswith("application/json"):
        try:
            return str(json.loads(response.content).get("error", "-"))
        except (ValueError, AttributeError):
            pass
    return "-"

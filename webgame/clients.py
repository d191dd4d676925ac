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
signature passing it along.
"""

from __future__ import annotations

import contextvars
import ipaddress
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import BaseThrottle

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
    """Make the request's client the :func:`current_client` while it is served."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = CURRENT.set(client_of(request))
        try:
            return self.get_response(request)
        finally:
            CURRENT.reset(token)

"""The HTTP protocol ``make run`` serves with: uvicorn's (httptools), with
deadlines for slow clients and JSON for the errors it answers itself.

uvicorn is asynchronous, so a slow client holds no thread, only a socket;
but it sets no deadline for a request to arrive, so sockets that send a byte
now and then would pile up for ever. Here:

- a request's head (request line and headers) must arrive within
  :data:`HEAD_SECONDS` of the connection, or of its first byte on a kept-alive
  connection; its body within :data:`BODY_SECONDS` of the head. Else the
  answer is 408 and the connection closes (an idle kept-alive connection
  closes after uvicorn's ``--timeout-keep-alive``);
- a head over :data:`MAX_HEAD_BYTES` is 431, a URL over :data:`MAX_URL_BYTES`
  414, a request the parser cannot read 400;

each as the API's ``{"error": code, "detail": text}``, never HTML or plain
text. Select it with ``uvicorn --http webgame.serving:GuardedHttpProtocol``.
"""

from __future__ import annotations

import asyncio
import json
import logging

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from . import stopping

log = logging.getLogger(__name__)

#: Seconds a request's head and then its body may take to arrive.
HEAD_SECONDS = 10.0
BODY_SECONDS = 10.0
#: The largest request head and URL taken (browsers send a few KiB).
MAX_HEAD_BYTES = 16 * 1024
MAX_URL_BYTES = 8 * 1024

REASONS = {
    400: "Bad Request",
    408: "Request Timeout",
    414: "URI Too Long",
    431: "Request Header Fields Too Large",
}


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the deadlines and limits above."""

    _deadline: asyncio.TimerHandle | None = None
    _head_bytes = 0
    _in_head = True
    #: The head's last bytes so far, to find its end across two reads.
    _head_tail = b""

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._start_head()

    def shutdown(self) -> None:
        """The server stops (uvicorn shuts each connection down first): tell
        what must not start now (:mod:`webgame.stopping`)."""
        stopping.begin()
        super().shutdown()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            if self._deadline is None:  # a kept-alive connection's next request
                self._start_head()
            self._head_bytes += self._head_part(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._refuse(
                    431, "request_too_large", "the request's head is too large"
                )
                return
        super().data_received(data)

    def _head_part(self, data: bytes) -> int:
        """Return how many bytes of ``data`` belong to the head: a body sent
        in the same read (as curl and urllib do) is not the head's."""
        before = self._head_tail
        seen = before + data
        self._head_tail = seen[-3:]
        end = seen.find(b"\r\n\r\n")
        return len(data) if end < 0 else end + 4 - len(before)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_URL_BYTES:
            self._refuse(414, "uri_too_long", "the URL is too long")

    def on_headers_complete(self) -> None:
        self._cancel()
        self._in_head = False
        self._deadline = self.loop.call_later(BODY_SECONDS, self._late, "body")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._cancel()
        self._in_head, self._head_bytes, self._head_tail = True, 0, b""
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._cancel()  # the socket's own protocol takes over
        super().handle_websocket_upgrade()

    def send_400_response(self, msg: str) -> None:
        self._refuse(400, "bad_request", "the server could not read the request")

    def _start_head(self) -> None:
        self._cancel()
        self._in_head, self._head_bytes, self._head_tail = True, 0, b""
        self._deadline = self.loop.call_later(HEAD_SECONDS, self._late, "head")

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self, part: str) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        seconds = HEAD_SECONDS if part == "head" else BODY_SECONDS
        self._refuse(
            408,
            "request_timeout",
            f"the request's {part} did not arrive within {seconds:g} s",
        )

    def _refuse(self, status: int, code: str, detail: str) -> None:
        """Answer ``status`` with the API's error body and close, unless the
        application has started an answer it has not finished (then only
        close). Logged: the access log never sees these."""
        self._cancel()
        if self.transport.is_closing():
            return
        client = self.client[0] if self.client else "?"
        log.info("refused a request from %s: %s, %s", client, status, detail)
        # On a kept-alive connection the cycle is the last request's, answered.
        answering = self.cycle is not None and not self.cycle.response_complete
        if not (answering and self.cycle.response_started):
            body = json.dumps({"error": code, "detail": detail}).encode()
            head = (
                f"HTTP/1.1 {status} {REASONS[status]}\r\n"
                "content-type: application/json\r\n"
                f"content-length: {len(body)}\r\n"
                "connection: close\r\n\r\n"
            ).encode()
            self.transport.write(head + body)
        self.transport.close()

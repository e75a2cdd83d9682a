"""The page's HTTP connections: uvicorn's h11 protocol with a deadline on each request's head, so that stalled
half-requests (a client that opens a connection and never finishes its request line and headers) are closed
rather than holding one of the server's connections for good."""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

HEAD_SECONDS = 5.0  # a request's line and headers must arrive within this, from the connection or the last answer


class TimedH11Protocol(H11Protocol):
    """H11Protocol whose connections wait at most HEAD_SECONDS for each request's head."""

    head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Open the connection and start waiting for its first request's head."""
        super().connection_made(transport)
        self.wait_for_head()

    def wait_for_head(self) -> None:
        """Close the connection unless a request's head arrives within HEAD_SECONDS."""
        self.stop_waiting()
        self.head_timer = self.loop.call_later(HEAD_SECONDS, self.head_too_late)

    def stop_waiting(self) -> None:
        """Forget the deadline on the head."""
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_too_late(self) -> None:
        """Close a connection whose request's head is still incomplete at its deadline."""
        self.head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        """uvicorn's events; the deadline ends once a request's head has arrived."""
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:
            self.stop_waiting()

    def on_response_complete(self) -> None:
        """After an answer, the next request's head has its own deadline."""
        super().on_response_complete()
        if not self.transport.is_closing():
            self.wait_for_head()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the deadline of a closed connection."""
        self.stop_waiting()
        super().connection_lost(exc)

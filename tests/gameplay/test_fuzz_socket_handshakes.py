"""Fuzz (issue 13, "Deliver" point 3): websocket handshakes with 300 generated seat tokens (any code point, NUL,
lone surrogates and other control characters, printable junk, percent-encoded random bytes decoded as daphne does)
are refused cleanly, with no exception and no close code 1011, and mark no seat as joined. Runs in phase 1 (SQLite)
and phase 2 (PostgreSQL: .ci/test runs tests/gameplay there).
"""

from __future__ import annotations

import asyncio
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.models import Seat
from gameplay.project.asgi import application
from gameplay.writes import services
from tests.gameplay.fuzz_support import (  # noqa: F401 (memory_layer is a fixture)
    HEALTH,
    NASTY,
    junk_bytes,
    memory_layer,
    segment,
)
from tests.gameplay.ws_support import HUMAN, ORIGIN, TIMEOUT, SeatCommunicator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


handshake_tokens = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=(), exclude_characters="/?#%"), max_size=80),
    st.lists(st.sampled_from(NASTY), min_size=1, max_size=8).map("".join),  # NUL, lone surrogates, controls
    st.text(string.printable.replace("/", "").replace("?", "").replace("#", ""), max_size=80),
    # Percent-encoded bytes: the path is decoded as daphne does (broken UTF-8 becomes U+FFFD), "/" left out.
    junk_bytes.map(lambda b: segment(b.replace(b"/", b""))),
)


def test_fuzz_websocket_handshake_tokens(memory_layer):  # noqa: F811
    """Handshakes with random tokens are refused cleanly (no exception, no 1011) and mark no seat as joined."""
    services.create_match("santorini", [HUMAN, HUMAN], seed=1)
    loop = asyncio.new_event_loop()
    before = list(Seat.objects.order_by("pk").values_list("pk", "joined_at"))

    async def handshake(token: str) -> tuple[bool, int]:
        comm = SeatCommunicator(application, f"/ws/play/{token}/", headers=ORIGIN)
        connected, code = await comm.connect(timeout=TIMEOUT)
        await comm.disconnect()
        return connected, code

    @settings(max_examples=300, deadline=None, suppress_health_check=HEALTH)
    @given(token=handshake_tokens)
    def refused(token):
        connected, code = loop.run_until_complete(handshake(token))
        assert connected is False and code != 1011, (token, code)

    try:
        refused()
    finally:
        loop.close()
    assert list(Seat.objects.order_by("pk").values_list("pk", "joined_at")) == before

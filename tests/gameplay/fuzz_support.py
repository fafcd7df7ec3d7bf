"""Shared pieces of the fuzz tests (issue 13, "Deliver" point 3; test_fuzz_socket_frames.py, test_fuzz_url_paths.py,
test_fuzz_socket_handshakes.py): Hypothesis's health checks to waive, nasty characters and bytes to build inputs
from, percent-encoding of raw bytes into a URL path segment, and the in-memory channel layer with the per-seat rate
limits lifted."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from channels.layers import channel_layers
from hypothesis import HealthCheck
from hypothesis import strategies as st

HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]

NASTY = [
    "\x00", "\ud800", "\udbff", "\udc00", "\udfff", "\x1b", "\x07", "\x7f", "\x85", "\x9f", "\r", "\n", "\t",
    "\u2028", "\ufeff", "\u202e", "\U0001f600", '"', "\\", "<", "&", "'", " ",
]
any_char = st.characters(codec=None, exclude_categories=())  # every code point, surrogates included


def segment(raw_bytes: bytes) -> str:
    """Raw bytes as one URL path segment, every byte that is not a letter or digit percent-encoded ("/" too)."""
    return quote(raw_bytes, safe="")


junk_bytes = st.one_of(
    st.binary(max_size=12),
    st.lists(st.sampled_from([b"\x00", b"\xed\xa0\x80", b"\xff", b"\xc0\x80", b"\x1b", b"/", b"%", b"?", b"a",
                              b"\xf4\x90\x80\x80", b"\xe2\x80\xae", b".."]), max_size=6).map(b"".join),
    st.text(any_char, max_size=10).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.integers(60, 300).map(lambda n: b"x" * n),
)


@pytest.fixture
def memory_layer(settings):
    """The in-memory channel layer, afresh, with the per-seat frame and chat limits out of the way."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # The schema is under test here, not the per-seat rate limits (test_socket_limits_*.py): 2,000 frames in ~40 s.
    settings.MAX_FRAMES_PER_SECOND = settings.MAX_CHAT_PER_MINUTE = 1_000_000
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()

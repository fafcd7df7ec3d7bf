"""bench_live_keys (issue 39, point 5) boxes a short bout against the test server and reports the page's own figures."""

from __future__ import annotations

import io
import json

from django.core.management import call_command


def test_bench_live_keys_reports_the_pages_key_to_frame_figures(server_url, chromium_path):
    out = io.StringIO()
    call_command("bench_live_keys", "--url", server_url, "--bouts", "1", "--seconds", "4", "--early", "2",
                 "--chromium", chromium_path, "--json", stdout=out)
    result = json.loads(out.getvalue())
    (bout,) = result["bouts"]
    assert "/play/" in bout["url"]
    early, whole = bout["early"], bout["whole"]
    assert early["seconds"] >= 2 and whole["seconds"] >= 4
    # Presses and releases were shown by frames, and the page measured them.
    assert whole["samples"] >= 4 and whole["samples"] >= early["samples"], bout
    assert whole["latency_ms"] is not None and whole["latency_ms"] > 0
    assert whole["frames"] > 60 and bout["fps_median"] > 0
    assert result["overall"]["whole"]["latency_ms"] == whole["latency_ms"]
    assert result["overall"]["whole"]["samples"] == whole["samples"]

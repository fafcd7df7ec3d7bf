"""Shared helpers of the browser journeys: a manage.py command run against a test server's database, and the serious
or critical axe-core violations of a page (tests/support/vendor/axe.min.js, injected into a context that bypasses
the page's Content-Security-Policy)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.live_server import ROOT

AXE = (ROOT / "tests" / "support" / "vendor" / "axe.min.js").read_text(encoding="utf-8")
SERIOUS = ("serious", "critical")
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
}"""


def manage(env: dict, *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)


def serious_violations(page) -> list[dict]:
    page.add_script_tag(content=AXE)
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]

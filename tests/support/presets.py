"""The study presets the tests load, and the LLM configurations they name (which must exist before a preset loads,
as for a researcher: README of fixtures/studies)."""

from __future__ import annotations

from django.core.management import call_command

from tests.support.live_server import ROOT

STUDIES = ROOT / "fixtures" / "studies"
GNOMES_PRESET = STUDIES / "gnomes_seeds003.json"
# The "gnomes-llm" configuration of the preset's LLM-partner condition.
GNOMES_LLM_AGENT = STUDIES / "gnomes_llm_agent.json"


def load_gnomes_preset(*flags: str) -> None:
    """In this test's database: the preset's LLM configuration (once), then the Gnomes preset itself."""
    from agents_app.models import AgentConfig

    if not AgentConfig.objects.filter(name="gnomes-llm").exists():
        call_command("loaddata", str(GNOMES_LLM_AGENT), verbosity=0)
    call_command("load_study", str(GNOMES_PRESET), *flags, verbosity=0)

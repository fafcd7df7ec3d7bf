"""LLM agents: any OpenAI-compatible chat model as a player, with base, Chain-of-Thought and RAP scaffolds.

``LLMAgent`` loads on first use (PEP 562): every process imports this package for the platform's key policy
(``settings``), while the agent and its prompts are needed only where a model plays. The probe is imported here
at once: its function has the name of its module, which an import of the module on its own would otherwise shadow.
"""

import importlib

from .probe import ProbeReport, blocking_problems, probe, requires_logprobs
from .settings import LLMAgentSettings

__all__ = ["LLMAgent", "LLMAgentSettings", "ProbeReport", "blocking_problems", "probe", "requires_logprobs"]


def __getattr__(name: str):
    if name != "LLMAgent":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = importlib.import_module(".agent", __name__).LLMAgent
    globals()[name] = value
    return value

"""LLM agents: any OpenAI-compatible chat model as a player, with base, Chain-of-Thought and RAP scaffolds.

The names below load on first use (PEP 562): the platform imports ``llm.settings`` for its key policy in every
process, and the agent, its client and the probe are needed only where a model is played or checked.
"""

import importlib

_HOMES = {
    "LLMAgent": "agent",
    "ProbeReport": "probe",
    "blocking_problems": "probe",
    "probe": "probe",
    "requires_logprobs": "probe",
    "LLMAgentSettings": "settings",
}

__all__ = ["LLMAgent", "LLMAgentSettings", "ProbeReport", "blocking_problems", "probe", "requires_logprobs"]


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value

"""LLM agents: any OpenAI-compatible chat model as a player, with base, Chain-of-Thought and RAP scaffolds."""

from .agent import LLMAgent
from .probe import ProbeReport, blocking_problems, probe, requires_logprobs
from .settings import LLMAgentSettings

__all__ = ["LLMAgent", "LLMAgentSettings", "ProbeReport", "blocking_problems", "probe", "requires_logprobs"]

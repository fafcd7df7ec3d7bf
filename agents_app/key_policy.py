"""Which environment variables may hold an LLM agent's key: the platform's policy, from settings
LLM_KEY_ENV_PATTERN and LLM_KEY_ENV_DENYLIST, handed to the pure LLM agent's settings. Its own module because both
the model (validation in the admin) and the selectors (building an agent's settings) need it, and the selectors
import the models."""

from __future__ import annotations

from django.conf import settings

from agents_app.agents.llm.settings import KeyEnvPolicy


def key_env_policy() -> KeyEnvPolicy:
    return KeyEnvPolicy.from_values(settings.LLM_KEY_ENV_PATTERN, settings.LLM_KEY_ENV_DENYLIST)

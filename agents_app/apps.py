from django.apps import AppConfig


class AgentsAppConfig(AppConfig):
    name = "agents_app"
    verbose_name = "Agents"

    def ready(self) -> None:
        from agents_app import (
            receivers,  # noqa: F401  (connects the signal receivers)
            selectors,
        )
        from gameplay.agent_directory import AgentProvider, register

        register(
            AgentProvider(exists=selectors.agent_exists, choices=selectors.agent_choices, plays=selectors.agent_plays)
        )

from django.apps import AppConfig


class AgentsAppConfig(AppConfig):
    name = "agents_app"
    verbose_name = "Agents"

    def ready(self) -> None:
        from agents_app import (
            receivers,  # noqa: F401  (connects the signal receivers)
            selectors,
        )
        from gameplay.reads.agent_directory import AgentProvider, register

        register(
            AgentProvider(
                exists=selectors.agent_exists,
                choices=selectors.agent_choices,
                plays=selectors.agent_plays,
                not_ready=_not_ready,
                refuses=selectors.agent_refuses_match,
                label=selectors.agent_label,
            )
        )


def _not_ready(name: str, game_id: str | None = None, allow_slow: bool = False) -> str | None:
    from agents_app.services import readiness_problem  # late: services imports models

    return readiness_problem(name, game_id, allow_slow=allow_slow)

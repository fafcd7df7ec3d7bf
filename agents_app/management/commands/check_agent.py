"""Check a stored LLM agent configuration against its endpoint before it plays.

    python manage.py check_agent NAME [--json]

Sends the probe's small requests (JSON mode, logprobs, an image, a JSON schema in each of two styles), asks the
server for its context length and token counter, prints what works and stores it on the configuration
(``AgentConfig.capabilities``: the agent then asks for the most constrained reply format the endpoint enforces and
fits its prompts into the context). Exit codes:
0 ready, 1 unreachable (or not a configuration), 2 reachable but unable to play as configured (e.g. RAP on an
endpoint without logprobs). The key is read from the environment by the client only and never printed.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from agents_app import selectors, services
from agents_app.agents import registry
from agents_app.services import RAP_WITHOUT_LOGPROBS

UNREACHABLE, NOT_READY = 1, 2


class Command(BaseCommand):
    help = "Probe an LLM agent configuration's endpoint: reachability, JSON mode, logprobs, images, latency."

    def add_arguments(self, parser):
        parser.add_argument("name", help="the agent configuration's name")
        parser.add_argument("--json", action="store_true", help="print the report as one JSON object")

    def handle(self, *args, name: str, **options):
        if name in registry.AGENTS:
            raise CommandError(f"{name!r} is a built-in agent: it calls no model, there is nothing to check")
        config = selectors.agent_config(name)
        if config is None:
            known = ", ".join(c for c, _ in selectors.agent_choices() if c not in registry.AGENTS) or "none yet"
            raise CommandError(f"no agent configuration {name!r}; configured: {known}")
        # Late import: only this command and LLM seats need the openai client.
        from agents_app.agents.llm import blocking_problems, probe, requires_logprobs

        settings = selectors.llm_settings(config)
        report = probe(settings)
        reachable = report.latency_ms is not None  # at least one request got an answer
        if reachable:
            services.store_capabilities(config, report.capabilities())
        problems = blocking_problems(settings, report) if reachable else []
        if requires_logprobs(settings) and reachable and not report.logprobs:
            # Say it in the words the operator will look for, whatever the probe's own wording.
            problems = [RAP_WITHOUT_LOGPROBS] + [p for p in problems if "logprobs" not in p]
        if options["json"]:
            self.stdout.write(_as_json(name, settings, report, reachable, problems))
        else:
            self.stdout.write(f"agent {name}: scaffold {settings.scaffold}")
            self.stdout.write(f"reachable: {'yes' if reachable else 'no'}")
            for line in report.lines():
                self.stdout.write(line)
            for problem in problems:
                self.stdout.write(problem)
            if reachable and not problems:
                self.stdout.write(self.style.SUCCESS("ready to play"))
        if not reachable:
            raise CommandError(f"agent {name!r}: the endpoint did not answer", returncode=UNREACHABLE)
        if problems:
            raise CommandError(f"agent {name!r} cannot play as configured", returncode=NOT_READY)


def _as_json(name, settings, report, reachable: bool, problems: list[str]) -> str:
    return json.dumps(
        {
            "agent": name,
            "model": report.model,
            "endpoint": report.endpoint,
            "scaffold": settings.scaffold,
            "reachable": reachable,
            "json_schema": report.json_schema,
            "schema_style": report.schema_style,
            "json_schema_detail": report.json_schema_detail,
            "json_mode": report.json_mode,
            "json_mode_detail": report.json_mode_detail,
            "context_tokens": report.context_tokens,
            "tokenizer": report.tokenizer,
            "logprobs": report.logprobs,
            "logprobs_detail": report.logprobs_detail,
            "images": report.images,
            "images_detail": report.images_detail,
            "latency_ms": report.latency_ms,
            "errors": list(report.errors),
            "problems": problems,
            "ready": reachable and not problems,
        },
        ensure_ascii=False,
    )

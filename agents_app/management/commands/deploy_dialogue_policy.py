"""Copy a solved dialogue policy onto an LLM agent configuration, making it the solver-guided agent.

    python manage.py deploy_dialogue_policy --run SOLVER_RUN_ID --agent NAME
    python manage.py deploy_dialogue_policy --policy-file policy.json --agent NAME

The policy (agents_app.agents.dialogue.policy's format) is validated before anything is saved: it must record the
game options it was solved under (valid options of its game) and one of the game's instruction sets. The
configuration's steering is set to "solver" and it then plays only matches under those options: creating a match
with other values of them is refused, and so is steering a turn of one (policy.applicability_problem). The
configuration keeps its copy: a later solver run changes nothing until deployed.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from agents_app import selectors
from agents_app.agents.dialogue import policy as policies
from agents_app.agents.dialogue.agent import game_dialogue
from gameplay.engines.api import EngineError
from gameplay.engines.registry import create_game


class Command(BaseCommand):
    help = "Deploy a solved dialogue policy (a solver run's, or a JSON file) on an agent configuration."

    def add_arguments(self, parser):
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--run", type=int, help="the id of a finished solver run")
        source.add_argument("--policy-file", help="a JSON file holding a deployed policy")
        parser.add_argument("--agent", required=True, help="the agent configuration's name")

    def handle(self, *args, run: int | None, policy_file: str | None, agent: str, **options):
        config = selectors.agent_config(agent)
        if config is None:
            raise CommandError(f"no agent configuration {agent!r} (built-in agents take no policy)")
        policy = self._from_run(run) if run is not None else self._from_file(policy_file)
        try:
            policies.validate_policy(policy)
        except policies.PolicyError as err:
            raise CommandError(f"not a deployable policy: {err}") from None
        dialogue = game_dialogue(str(policy["game"]))
        if dialogue is None:
            raise CommandError(f"the policy is for {policy['game']!r}, which is not a dialogue game here")
        try:
            game = create_game(str(policy["game"]), dict(policy["options"]))
        except EngineError as err:
            raise CommandError(f"the policy's recorded options are not {policy['game']}'s: {err}") from None
        # Under the options it records (defaults filled in for any it leaves out) it must hold: this checks its set.
        problem = policies.applicability_problem(policy, game.spec.id, game.options, dialogue)
        if problem:
            raise CommandError(f"not a deployable policy: {problem}")
        config.dialogue_steering = config.DialogueSteering.SOLVER
        config.dialogue_policy = policy
        try:
            config.full_clean()
        except ValidationError as err:
            raise CommandError(f"the configuration does not validate: {err}") from None
        config.save()
        self.stdout.write(
            f"{agent}: solver-guided on {policy['game']} ({policy['instruction_set']}: "
            f"{', '.join(policy['instructions'])}; {len(policy['by_turn'])} turn and "
            f"{len(policy['by_infostate'])} information-state entries)"
        )
        recorded = ", ".join(f"{name}={json.dumps(value)}" for name, value in policy["options"].items())
        self.stdout.write(f"solved under options {recorded or '(none recorded)'}: matches with other values of "
                          "these are refused")

    @staticmethod
    def _from_file(path: str) -> dict:
        try:
            return json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise CommandError(f"cannot read {path}: {err}") from None

    @staticmethod
    def _from_run(run_id: int) -> dict:
        # Solver runs are stored by the solver pipeline (agents_app's SolverRun); looked up by name so this command
        # also works, with --policy-file, where they are not installed.
        try:
            model = apps.get_model("agents_app", "SolverRun")
        except LookupError:
            raise CommandError("solver runs are not available here; use --policy-file") from None
        run = model.objects.filter(pk=run_id).first()
        if run is None:
            raise CommandError(f"no solver run {run_id}")
        # A finished run keeps the deployable policy in its result (agents_app.agents.dialogue.pipeline.solve).
        policy = (getattr(run, "result", None) or {}).get("policy")
        if not policy:
            error = getattr(run, "error", "")
            why = f"status {getattr(run, 'status', '?')}" + (f": {error}" if error else "")
            raise CommandError(f"solver run {run_id} has no policy ({why})")
        return dict(policy)

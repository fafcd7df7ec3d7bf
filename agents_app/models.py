"""Stored agent configurations, every model call an agent made, and tournaments between agents.

An ``AgentConfig`` names an OpenAI-compatible model as a player. It stores the NAME of the
environment variable that holds the API key, never the key. ``AgentCall`` rows are the transcript of
each decision (what was sent, what came back, what was made of it), tied to the match event the
decision produced. A ``Tournament`` is a set of ``TournamentMatch`` rows scheduled as Celery tasks.
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models.deletion import ProtectedError

from agents_app.key_policy import key_env_policy
from gameplay.models import Event, Match, Seat

env_var_name = RegexValidator(
    r"^[A-Za-z_][A-Za-z0-9_]*$", "Give the NAME of an environment variable (letters, digits, _), not a key."
)


class AgentConfig(models.Model):
    class ReplyFormat(models.TextChoices):
        AUTO = "auto", "Auto (the most constrained the endpoint supports)"
        SCHEMA = "schema", "JSON schema (only legal ids)"
        JSON = "json", "JSON mode"
        TEXT = "text", "Free text, parsed"

    class Scaffold(models.TextChoices):
        BASE = "base", "Base model (answers directly)"
        COT = "cot", "Chain-of-Thought (reason, then answer)"
        RAP = "rap", "Reasoning-via-Planning (MCTS with the model as world model)"

    name = models.SlugField(max_length=100, unique=True, help_text="The agent's id in seats, tournaments and ratings.")
    description = models.CharField(max_length=300, blank=True)
    base_url = models.URLField(max_length=500, help_text="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1")
    model = models.CharField(max_length=200)
    api_key_env = models.CharField(
        "API key variable",
        max_length=100,
        blank=True,
        default="OPENAI_API_KEY",
        validators=[env_var_name],
        help_text="The NAME of the environment variable holding the key (empty: no key, e.g. a local server).",
    )
    temperature = models.FloatField(default=0.0, validators=[MinValueValidator(0.0), MaxValueValidator(2.0)])
    max_tokens = models.PositiveIntegerField(default=512, validators=[MinValueValidator(1)])
    timeout_s = models.FloatField("timeout (s)", default=30.0, validators=[MinValueValidator(0.1)])
    retries = models.PositiveSmallIntegerField(
        default=3, help_text="Invalid replies corrected per move before falling back to a random legal action."
    )
    http_retries = models.PositiveSmallIntegerField(
        default=3, help_text="Retries (with backoff) after 429, 5xx, timeouts and connection errors."
    )
    explain_limit = models.PositiveSmallIntegerField(
        default=3, help_text="Rule explanations per move; they do not use up the retries."
    )
    scaffold = models.CharField(max_length=8, choices=Scaffold.choices, default=Scaffold.BASE)
    rap_depth = models.PositiveSmallIntegerField("RAP depth", default=2, validators=[MinValueValidator(1)])
    rap_iterations = models.PositiveSmallIntegerField("RAP iterations", default=10, validators=[MinValueValidator(1)])
    vision = models.BooleanField(default=False, help_text="Send the board picture when the game draws one.")
    json_mode = models.BooleanField(default=True, help_text="Ask the endpoint for a JSON object reply.")
    chat_replies = models.PositiveSmallIntegerField(
        "chat lines per turn",
        default=1,
        help_text="In games with chat: lines it may send between two of its moves, the one sent with a move "
        "included, answering what its partners write to it (0: it talks only with its moves).",
    )
    history_moves = models.PositiveSmallIntegerField(
        "history window",
        default=8,
        validators=[MaxValueValidator(20)],
        help_text="How many of the match's latest moves the prompt lists, as this seat saw them (0: none).",
    )
    reply_format = models.CharField(
        max_length=8,
        choices=ReplyFormat.choices,
        default=ReplyFormat.AUTO,
        help_text="How moves are asked for. Auto: a JSON schema that admits only the legal action ids where the "
        "endpoint enforces schemas, else JSON mode (if on above), else free text, as check_agent found.",
    )
    decision_deadline_s = models.FloatField(
        "decision deadline (s)",
        default=30.0,
        validators=[MinValueValidator(1.0)],
        help_text="Hard limit on one decision (every attempt, correction, explanation and RAP simulation); when it "
        "passes, the move falls back at once and is flagged.",
    )
    context_tokens = models.PositiveIntegerField(
        "context length (tokens)",
        default=0,
        help_text="The model's context length. 0: as the endpoint reports it (check_agent), else unknown: prompts "
        "are then not fitted.",
    )
    class DialogueSteering(models.TextChoices):
        NONE = "", "None (an ordinary LLM agent)"
        SOLVER = "solver", "Solver-guided (instructions drawn from the deployed policy)"
        ANY = "any", "Unguided control (always the 'any' instruction)"

    # Dialogue games only (GameSpec.dialogue): before each message the agent picks an instruction (a tone, ...).
    dialogue_steering = models.CharField(
        max_length=8,
        choices=DialogueSteering.choices,
        default=DialogueSteering.NONE,
        blank=True,
        help_text="Set: the agent plays dialogue games only, steering each message by an instruction it records "
        "with the move.",
    )
    dialogue_policy = models.JSONField(
        default=dict,
        blank=True,
        help_text="The deployed solver policy (required for solver steering); copy one with "
        "python manage.py deploy_dialogue_policy.",
    )
    capabilities = models.JSONField(
        default=dict,
        blank=True,
        editable=False,
        help_text="What the endpoint supports, as check_agent (or the preflight) last probed it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = "LLM agent configuration"

    def __str__(self) -> str:
        return self.name

    def clean(self):
        from agents_app.agents.registry import AGENTS

        if self.name in AGENTS:
            raise ValidationError({"name": f"{self.name!r} is a built-in agent; choose another name."})
        problem = self.key_env_problem()
        if problem:
            raise ValidationError({"api_key_env": problem})
        self._clean_dialogue()

    def key_env_problem(self) -> str:
        """Why the platform's key policy (agents_app.key_policy) refuses ``api_key_env``, or "". Asked by clean (the
        admin shows it beside the field) and before every save (agents_app.receivers), which loaddata and code reach
        without clean."""
        return key_env_policy().problem((self.api_key_env or "").strip())

    def _clean_dialogue(self):
        from agents_app.agents.dialogue import policy as policies

        if self.dialogue_steering == self.DialogueSteering.SOLVER:
            if not self.dialogue_policy:
                raise ValidationError({"dialogue_policy": "A solver-guided agent needs a deployed policy."})
            try:
                policies.validate_policy(self.dialogue_policy)
            except policies.PolicyError as err:
                raise ValidationError({"dialogue_policy": str(err)}) from None

    def plays_game(self, game_id: str | None) -> bool:
        """Whether this configuration can play ``game_id`` (None: any): a steered agent only plays dialogue games
        (its solver policy: the game it was solved for)."""
        if not self.dialogue_steering or game_id is None:
            return True
        from agents_app.agents.dialogue.agent import game_dialogue

        if game_dialogue(game_id) is None:
            return False
        if self.dialogue_steering == self.DialogueSteering.SOLVER:
            return str((self.dialogue_policy or {}).get("game", game_id)) == game_id
        return True

    def policy_problem(self, game_id: str, options) -> str | None:
        """Why this configuration's deployed policy may not steer a ``game_id`` match played with ``options`` (the
        game's, defaults filled in), or None (it may, or this configuration follows no policy)."""
        if self.dialogue_steering != self.DialogueSteering.SOLVER:
            return None
        from agents_app.agents.dialogue import policy as policies
        from agents_app.agents.dialogue.agent import game_dialogue

        dialogue = game_dialogue(game_id)
        if dialogue is None:
            return None  # not a dialogue game: plays_game refuses it already
        return policies.applicability_problem(self.dialogue_policy or {}, game_id, options, dialogue)

    def has_matches(self) -> bool:
        return Seat.objects.filter(controller=Seat.Controller.AGENT, agent_name=self.name).exists()

    def delete(self, *args, **kwargs):
        # Ratings and transcripts refer to the agent by name: its configuration must outlive its matches.
        if self.has_matches():
            raise ProtectedError(f"agent {self.name!r} has played matches and cannot be deleted", {self})
        return super().delete(*args, **kwargs)


class AgentCall(models.Model):
    """One request to a model and what came of it, attached to the event its decision produced."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="agent_calls")
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="agent_calls")
    seat = models.SmallIntegerField()
    agent_name = models.CharField(max_length=100, db_index=True)
    version = models.PositiveIntegerField(help_text="Match version the decision was made at.")
    seq = models.PositiveSmallIntegerField(help_text="Order of this call within the decision.")
    purpose = models.CharField(max_length=24, help_text="move, explain, reason, correction, rap-…")
    request_messages = models.JSONField(help_text="Messages sent (images replaced by a short description).")
    raw_reply = models.TextField(blank=True)
    parsed_action = models.CharField(max_length=200, blank=True)
    error = models.TextField(blank=True)
    fallback = models.BooleanField(default=False, help_text="The decision fell back to a random legal action.")
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    details = models.JSONField(
        default=dict, blank=True, help_text="What a search made of the reply (RAP: probabilities, values, choice)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "version", "seq"]

    @property
    def details_text(self) -> str:
        """``details`` as indented JSON, for the transcript panel."""
        return json.dumps(self.details, indent=1, sort_keys=True, ensure_ascii=False)


class Tournament(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    key = models.CharField(max_length=64, unique=True, help_text="sha256 of game, agents, matches, seed, options.")
    game_id = models.CharField(max_length=64)
    agents = models.JSONField(help_text="Agent names, in the order given.")
    matches_per_pair = models.PositiveIntegerField()
    seats = models.PositiveSmallIntegerField(
        default=2, help_text="Seats per match; a pair of agents fills them alternately (3 seats: A, B, A)."
    )
    seed = models.BigIntegerField()
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game_id} tournament #{self.pk}"


class TournamentMatch(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    index = models.PositiveIntegerField()
    seat_agents = models.JSONField(help_text="Agent name per seat, seat 0 first.")
    seed = models.BigIntegerField()
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_entry"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    error = models.TextField(blank=True)
    played_by = models.CharField(max_length=200, blank=True, help_text="host:pid of the process that played it.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "index"]
        constraints = [models.UniqueConstraint(fields=["tournament", "index"], name="unique_tournament_index")]


class DialogueGeneration(models.Model):
    """One model reply a dialogue solver asked for, kept as its cache (seed 004): the same request for the same
    LLM seed is answered from here, so a second solve makes no model call and gets the same tree. Also the record
    of every generation call (what was sent and what came back)."""

    key = models.CharField(max_length=64, unique=True, help_text="sha256 of model, messages and LLM seed index.")
    model = models.CharField(max_length=200)
    request_messages = models.JSONField()
    reply = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]


class SolverRun(models.Model):
    """One solve of a dialogue game (CFR or PSRO over an instruction set) with the model that generated its tree."""

    class Solver(models.TextChoices):
        CFR = "cfr", "CFR"
        PSRO = "psro", "PSRO"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    game_id = models.CharField(max_length=50)
    options = models.JSONField(default=dict, blank=True, help_text="The game's options.")
    solver = models.CharField(max_length=8, choices=Solver.choices, default=Solver.CFR)
    instruction_set = models.CharField(max_length=50, blank=True,
                                       help_text="Empty: the game's default set for this solver (e.g. days for CFR "
                                       "on Meeting Scheduling).")
    depth = models.PositiveSmallIntegerField(default=2)
    llm_seeds = models.PositiveSmallIntegerField(default=2)
    init_states = models.PositiveSmallIntegerField(default=1)
    iterations = models.PositiveIntegerField(default=100)
    psro_iterations = models.PositiveSmallIntegerField(default=3)
    seed = models.BigIntegerField(default=0)
    # The LLM seeds are samples of the model only at a temperature above 0 (each request also carries its own
    # sampling seed): a solve may sample hotter or colder than the agent plays.
    temperature = models.FloatField(null=True, blank=True,
                                    validators=[MinValueValidator(0.0), MaxValueValidator(2.0)],
                                    help_text="The sampling temperature of the generated turns; empty: the agent's.")
    agent = models.ForeignKey(AgentConfig, on_delete=models.PROTECT, related_name="solver_runs",
                              help_text="The model that generates the dialogue turns.")
    judge_agent = models.ForeignKey(AgentConfig, on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="judged_solver_runs",
                                    help_text="A judged game's judge model; empty: the game's fallback rule.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    result = models.JSONField(default=dict, blank=True,
                              help_text="Policy, equilibrium table, CFR gain, NashConv, PSRO history, tree size.")
    model_calls = models.PositiveIntegerField(default=0, help_text="Requests sent (cached replies not counted).")
    cache_hits = models.PositiveIntegerField(default=0)
    elapsed_s = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.solver} on {self.game_id} #{self.pk}"


class EvalCall(models.Model):
    """One model call of an evaluation made outside play (seed 002): a theory-of-mind probe of a seat of a stored
    Who is Spy match (``spy_probes``), or a DEEP description or judgement (``deep_eval``). Like ``AgentCall`` it keeps
    what was sent, what came back and what was made of it; ``run`` groups the calls of one command run."""

    task = models.CharField(max_length=24, db_index=True, help_text="spy_probes or deep_eval.")
    run = models.CharField(max_length=40, db_index=True, help_text="The command run the call belongs to.")
    agent_name = models.CharField(max_length=100, db_index=True, help_text="The configuration asked.")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="eval_calls",
                              help_text="The match a probe was built from (none for DEEP).")
    seat = models.SmallIntegerField(null=True, blank=True, help_text="The seat whose observation a probe showed.")
    purpose = models.CharField(max_length=24, help_text="first-order, second-order, aggressive, candidates, …")
    request_messages = models.JSONField(help_text="Messages sent.")
    raw_reply = models.TextField(blank=True)
    parsed = models.JSONField(null=True, blank=True, help_text="What was read from the reply (None: unusable).")
    error = models.TextField(blank=True)
    latency_ms = models.PositiveIntegerField(null=True, blank=True)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True, help_text="The word, mode, scored word, attempt, …")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

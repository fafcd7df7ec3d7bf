"""The extensive-form game a dialogue game becomes for its solvers (seed 004, §2-3).

    chance: which scenario (one of ``init_states`` scenario seeds)
      decision: the seat to move picks an instruction (a tone, a day, a style) from the instruction set
        chance: which of ``llm_seeds`` samples of the model writes the turn (uniform; each its own sampling seed,
                generation.py; seeds that all gave one turn are counted, ``TreeStats.identical``)
          the generated turn (a legal move and its message) is applied to the engine; then the next decision
      ... until the engine's game is over or ``depth`` decisions were made.

A leaf pays each seat the game's payoff measure (raw, e.g. the change of basket value: 0 without an agreement). A
judged game's leaf gets its verdict first, from the judge model when asked for, else the engine's fallback rule.
An information state is the seat and a digest of its observation text (``policy.infostate_key``): its private
information and the public thread, which is what the seat's model reads.

Everything is read through the engine API and GameSpec.dialogue; nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agents_app.agents.llm.judge import parse_verdict
from agents_app.agents.llm.judge import system_prompt as judge_prompt
from gameplay.engines.api import EngineError, Game, IllegalActionError, State
from gameplay.engines.dialogue import clean_message
from gameplay.engines.seeding import derive_seed

from .generation import CachedModel, Unreachable
from .policy import infostate_key
from .prompts import FALLBACK_MOVE, NEUTRAL_MESSAGE, build_turn_messages


@dataclass
class Terminal:
    payoffs: tuple[float, float]
    label: str = ""


@dataclass
class Chance:
    outcomes: list  # (label, probability, child)


@dataclass
class Decision:
    seat: int
    infoset: str  # infostate_key of the seat's observation (or any string in hand-built trees)
    actions: list  # instruction names
    children: list  # one node per action
    message_index: int = 0  # how many messages this seat had written before this one


Node = Terminal | Chance | Decision


@dataclass(frozen=True)
class TreeOptions:
    depth: int = 2
    llm_seeds: int = 2
    init_states: int = 1
    seed: int = 0


@dataclass
class TreeStats:
    nodes: int = 0
    decisions: int = 0
    terminals: int = 0
    infosets: set = field(default_factory=set)
    illegal_turns: list = field(default_factory=list)
    # Chance nodes over more than one LLM seed, and those whose seeds all gave the same turn (move and message):
    # such a node is no sample of the model, only copies of one reply.
    sampled: int = 0
    identical: int = 0

    def as_dict(self) -> dict:
        return {"nodes": self.nodes, "decision_nodes": self.decisions, "terminals": self.terminals,
                "infosets": len(self.infosets), "sampled_chance_nodes": self.sampled,
                "identical_samples": self.identical}


def scenario_seed(seed: int, index: int) -> int:
    """The engine seed of scenario ``index`` of a solve with ``seed``."""
    return derive_seed("scenario", seed, index)


class TreeBuilder:
    """Builds the tree of one dialogue game with one model.

    ``instructions_for(seat)`` lists what a seat may choose at its decisions (the instruction set for CFR; a single
    instruction when PSRO evaluates a profile)."""

    def __init__(self, game: Game, model: CachedModel, instruction_set, options: TreeOptions,
                 judge: CachedModel | None = None):
        if game.spec.dialogue is None:
            raise EngineError(f"{game.spec.name} is not a dialogue game")
        self.game = game
        self.dialogue = game.spec.dialogue
        self.model = model
        self.instruction_set = instruction_set
        self.options = options
        self.judge = judge  # the judge model of a judged game; None: the engine's fallback rule decides
        self.stats = TreeStats()

    def build(self, instructions_for: Callable[[int], Sequence[str]] | None = None) -> Node:
        choose = instructions_for or (lambda seat: self.instruction_set.instructions)
        count = self.options.init_states
        outcomes = []
        for index in range(count):
            state = self.game.new_initial_state(scenario_seed(self.options.seed, index))
            outcomes.append((f"scenario {index}", 1.0 / count, self._expand(state, 0, choose)))
        self.stats.nodes += 1
        return Chance(outcomes)

    def _expand(self, state: State, decisions: int, choose) -> Node:
        self.stats.nodes += 1
        if not state.is_terminal() and state.awaiting_verdict():
            state = state.clone()
            self._judge(state)
        seats = [] if state.is_terminal() else state.current_seats()
        if not seats or decisions >= self.options.depth:
            self.stats.terminals += 1
            return Terminal(self._payoffs(state))
        seat = seats[0]
        observation = state.observation(seat).text
        key = infostate_key(seat, observation)
        self.stats.decisions += 1
        self.stats.infosets.add(key)
        actions = list(choose(seat))
        children = []
        text_actions = state.text_actions(seat)
        parts = {
            "rules_summary": self.game.rules.summary,
            "observation_text": observation,
            "text_actions": [(a.id, a.label) for a in text_actions],
        }
        legal_ids = [a.id for a in text_actions]
        for instruction in actions:
            messages = build_turn_messages(parts, self.instruction_set.text(instruction))
            seeds = self.options.llm_seeds
            outcomes, turns = [], set()
            for llm_seed in range(seeds):
                turn = self.model.turn(messages, legal_ids, llm_seed)
                turns.add((turn.move, turn.message))
                child = self._after_turn(state, seat, turn.move, turn.message)
                outcomes.append((f"llm seed {llm_seed}", 1.0 / seeds, self._expand(child, decisions + 1, choose)))
            if seeds > 1:
                self.stats.sampled += 1
                self.stats.identical += len(turns) == 1
            self.stats.nodes += 1
            children.append(Chance(outcomes))
        # The seat's message number as the live agent counts it (its moves in the log; services.turn_view), so the
        # policy's per-turn view answers a live turn under the same key.
        written = sum(1 for record in state.log if record.seat == seat)
        return Decision(seat, key, actions, children, message_index=written)

    def _after_turn(self, state: State, seat: int, move: str, message: str) -> State:
        """The state after the generated turn. A turn the engine refuses becomes ``talk`` (or, in a game without it,
        the first legal move) with a neutral message; the refusal is counted as a fallback."""
        limits = {a.id: a.max_length for a in state.text_actions(seat)}
        limit = min(self.dialogue.max_message_length, limits.get(move, self.dialogue.max_message_length))
        child = state.clone()
        try:
            child.apply_action(seat, move, clean_message(message[:limit], limit))
            return child
        except IllegalActionError as err:
            self.stats.illegal_turns.append(f"{move}: {err}")
            self.model.stats.fallbacks.append(("engine", f"{move}: {err}"))
        fallback = FALLBACK_MOVE if FALLBACK_MOVE in limits else next(iter(limits), FALLBACK_MOVE)
        child = state.clone()
        try:
            child.apply_action(seat, fallback, NEUTRAL_MESSAGE)
        except IllegalActionError as err:
            raise EngineError(f"{self.game.spec.name} refuses even the fallback turn {fallback!r}: {err}") from None
        return child

    def _judge(self, state: State) -> None:
        """Apply the judge model's verdict (cached like a turn), or the engine's rule when there is no judge model or
        its reply names no offered verdict."""
        verdict, source = state.fallback_verdict(), "rule"
        if self.judge is not None:
            # The live judge's own prompt and reply check (agents_app/agents/llm/judge.py), so a solved tree is
            # judged as a played match is.
            text, verdicts = state.verdict_request()
            messages = [{"role": "system", "content": judge_prompt(verdicts)}, {"role": "user", "content": text}]
            try:
                verdict, _reason = parse_verdict(self.judge.reply(messages, 0, "dialogue-judge"), verdicts)
                source = self.judge.model
            except Unreachable as err:
                self.model.stats.fallbacks.append(("judge", f"judge unreachable: {err.reason}"))
            except ValueError as err:
                self.model.stats.fallbacks.append(("judge", f"the judge's reply is unusable: {err}"))
        state.apply_verdict(verdict, source)

    def _payoffs(self, state: State) -> tuple[float, float]:
        measure = self.dialogue.payoff_measure
        # A dialogue cut off by the depth limit is unfinished: engines report no payoff yet (None), and without an
        # agreement the payoff is 0, as the seed's "Incomplete" outcome.
        values = [state.measures(seat).get(measure) for seat in range(2)]
        return tuple(0.0 if value is None else float(value) for value in values)



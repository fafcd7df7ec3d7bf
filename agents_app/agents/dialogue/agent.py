"""The solver-guided language-model agent of dialogue games (seed 004) and its unguided control.

Before each of its messages the agent picks an *instruction* (a tone, a day, an argument style; see
``gameplay.engines.dialogue``) and asks its model for one move with a message written that way:

- steering "solver": the instruction is drawn from the deployed policy (``policy.distribution`` for this seat, its
  message index and its observation text), seeded by the view so a match replays. A policy solved for another game,
  under other game options or over another instruction set is refused (``policy.applicability_problem``): the
  turn falls back to a neutral message without asking the model, flagged with the reason;
- steering "any": the control of the study design, always ``dialogue.ANY`` (the model writes as it thinks best).

The turn is asked with the solver's own turn prompt (``prompts.build_turn_messages``: a live turn reads the same
words as the turns the solver's tree was generated with) and read with ``prompts.parse_turn_reply`` ({"move",
"message"}). The rest is the LLM agent's: the same settings and client stack (every call recorded as an AgentCall),
the message checked as the engine keeps it and then by the platform's text validator, at most two corrections, and a
fallback when the model gives nothing usable: a ``talk`` move with a neutral message, so a failed model call does
not trade or walk away on the seat's behalf.

The instruction is private to the seat and not part of the engine state: it goes on record in ``Decision.note``
("instruction: assertive (policy: turn)"), which the platform stores with the move. The agent reads only the view
of its own seat.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import replace

from agents_app.agents.base import ChatAnswer, ChatLine, Decision, TurnView
from agents_app.agents.llm.agent import LLMAgent, random_legal_choice
from agents_app.agents.llm.client import ChatCaller, GiveUp
from agents_app.agents.llm.settings import LLMAgentSettings
from gameplay.engines.api import IllegalActionError
from gameplay.engines.dialogue import ANY, DialogueSpec, InstructionSet, clean_message
from gameplay.engines.registry import UnknownGameError, game_class

from . import policy as policies
from . import prompts as turn_prompts

logger = logging.getLogger(__name__)

STEERING_MODES = ("solver", "any")
# Where the platform puts the number of messages this seat has already sent (agents_app.services.turn_view): the
# policy's per-turn view is keyed by it.
MESSAGE_INDEX_KEY = "dialogue_message_index"
# Where it puts the match's game options (defaults filled in): a policy holds only under the options it was solved
# under.
OPTIONS_KEY = "dialogue_options"
# "One or two corrections": a dialogue turn is one short request, and a person is waiting for the reply.
MAX_CORRECTIONS = 2


def game_dialogue(game_id: str) -> DialogueSpec | None:
    """The dialogue declaration of a registered game (None: not a dialogue game, or not a game here)."""
    try:
        return game_class(game_id).spec.dialogue
    except UnknownGameError:
        return None


class DialogueAgent(LLMAgent):
    """An LLM agent whose every message in a dialogue game follows an instruction it picked first.

    In a game without ``spec.dialogue`` it plays exactly like the LLM agent (no instruction, no note)."""

    # A dialogue game's messages are its moves: an unsteered chat line between them would escape the instruction.
    chat_replies_per_turn = 0

    def __init__(
        self,
        settings: LLMAgentSettings,
        *,
        steering: str,
        policy: Mapping | None = None,
        dialogue_for: Callable[[str], DialogueSpec | None] = game_dialogue,
        **kwargs,
    ):
        if steering not in STEERING_MODES:
            raise ValueError(f"unknown dialogue steering {steering!r}; known: {', '.join(STEERING_MODES)}")
        if steering == "solver":
            if policy is None:
                raise ValueError("a solver-guided agent needs a deployed policy")
            policies.validate_policy(policy)
        if settings.scaffold == "rap":
            # RAP plans over moves with the model as world model; a steered message is one request, so it answers
            # directly (the configuration's other settings still apply).
            settings = replace(settings, scaffold="base")
        super().__init__(settings, **kwargs)
        self.chat_replies_per_turn = 0
        self.steering = steering
        self.policy = dict(policy) if policy is not None else None
        self._dialogue_for = dialogue_for
        self.description = f"{self.description}, dialogue steering: {steering}"

    def answer(self, view: TurnView, lines: tuple[ChatLine, ...]) -> ChatAnswer:
        return ChatAnswer(None)

    def __repr__(self) -> str:
        return f"DialogueAgent({self.settings!r}, steering={self.steering!r})"

    # --- choosing the instruction --------------------------------------------------------------------------------

    def choose_instruction(self, view: TurnView, dialogue: DialogueSpec) -> tuple[str, InstructionSet, str]:
        """(instruction, its set, what chose it) for this message. Seeded by the view: a replayed match draws the
        same instruction at the same decision."""
        if self.steering == "any":
            return ANY, dialogue.default_set, "control"
        problem = self.policy_problem(view, dialogue)
        if problem:
            raise PolicyRefused(problem)
        family = dialogue.instruction_set(str(self.policy["instruction_set"]))
        index = int(view.extra.get(MESSAGE_INDEX_KEY, 0) or 0)
        dist, answered = policies.distribution(self.policy, view.seat, index, view.observation.text)
        if not any(p > 0 for p in dist.values()):
            dist = {name: 1.0 for name in dist} or {ANY: 1.0}
        return policies.sample(dist, random.Random(view.seed)), family, answered

    def policy_problem(self, view: TurnView, dialogue: DialogueSpec) -> str | None:
        """Why the deployed policy may not steer this match (None: it may)."""
        options = view.extra.get(OPTIONS_KEY)
        return policies.applicability_problem(
            self.policy, view.game_id, options if isinstance(options, Mapping) else None, dialogue
        )

    # --- deciding ------------------------------------------------------------------------------------------------

    def decide(self, view: TurnView) -> Decision:
        dialogue = self._dialogue_for(view.game_id)
        if dialogue is None:
            return super().decide(view)
        caller = ChatCaller(self._client, self.settings, sleep=self._sleep)
        try:
            instruction, family, answered = self.choose_instruction(view, dialogue)
        except PolicyRefused as err:
            # Never steer by a policy solved for something else, nor pretend to be the control: a flagged neutral turn.
            reason = f"policy refused: {err}"
            return replace(self._neutral_fallback(view, caller, reason, dialogue),
                           note="instruction: none (policy refused)")
        note = f"instruction: {instruction} ({'policy: ' + answered if self.steering == 'solver' else answered})"
        try:
            action_id, text = self._turn(view, caller, family.text(instruction), dialogue.max_message_length)
        except (GiveUp, _NoValidTurn) as err:
            return replace(self._neutral_fallback(view, caller, err.reason, dialogue), note=note)
        except Exception as err:  # a bug or an odd reply object must not stall the match
            logger.exception("dialogue agent %s failed unexpectedly", self.name)
            reason = f"unexpected error: {type(err).__name__}: {err}"[:300]
            return replace(self._neutral_fallback(view, caller, reason, dialogue), note=note)
        return Decision(action_id=action_id, text=text, calls=tuple(caller.calls), note=note)

    def _turn(self, view: TurnView, caller: ChatCaller, instruction_text: str, max_message: int) -> tuple[str, str]:
        """One move and message: the solver's turn prompt (the same words its game tree was generated with), then
        up to two corrections naming what was wrong (a malformed reply, an illegal move, a message the engine
        refuses)."""
        messages = turn_prompts.build_turn_messages(view, instruction_text)
        legal = [t.id for t in view.text_actions] + [a.id for a in view.legal_actions]
        corrections = min(self.settings.retries, MAX_CORRECTIONS)
        for attempt in range(1 + corrections):
            reply = caller.call(messages, purpose="move" if attempt == 0 else "correction",
                                json_mode=self.settings.json_mode)
            raw = reply.text or reply.refusal or ""
            try:
                action_id, message = turn_prompts.parse_turn_reply(reply.text or "", legal)
                message = self._checked(view, action_id, message, max_message)
            except turn_prompts.ReplyError as err:
                caller.annotate_last(error=f"invalid reply: {err}")
                problem = str(err)
            else:
                caller.annotate_last(parsed_action=action_id)
                return action_id, message
            messages = turn_prompts.correction_messages(messages, raw, problem)
        raise _NoValidTurn(f"no valid reply after {corrections} correction(s); last problem: {problem}")

    def _checked(self, view: TurnView, action_id: str, message: str, max_message: int) -> str:
        """The message as the engine will keep it, or ReplyError with the engine's reason."""
        spec = next((t for t in view.text_actions if t.id == action_id), None)
        limit = min(max_message, spec.max_length) if spec is not None else max_message
        try:
            message = clean_message(message, limit)
        except IllegalActionError as err:
            raise turn_prompts.ReplyError(f"the message was refused: {err}") from None
        if self.text_validator is not None and spec is not None:
            refused = self.text_validator(action_id, message)
            if refused:
                raise turn_prompts.ReplyError(f"the move {action_id!r} with that message was refused: {refused}")
        return message

    def _neutral_fallback(self, view: TurnView, caller: ChatCaller, reason: str, dialogue: DialogueSpec) -> Decision:
        """A message-only move with a neutral message where the game has one (it neither trades nor quits on the
        seat's behalf); else a legal move as the LLM agent falls back."""
        logger.warning("dialogue agent %s falls back: %s", self.name, reason)
        talk = next((t for t in view.text_actions if t.id == turn_prompts.FALLBACK_MOVE), None)
        if talk is not None:
            try:
                text = self._checked(view, talk.id, turn_prompts.NEUTRAL_MESSAGE, dialogue.max_message_length)
                return Decision(action_id=talk.id, text=text, calls=tuple(caller.calls), fallback_reason=reason)
            except turn_prompts.ReplyError:
                pass
        action_id, text = random_legal_choice(view)
        return Decision(action_id=action_id, text=text, calls=tuple(caller.calls), fallback_reason=reason)


class PolicyRefused(Exception):
    """The deployed policy does not hold for this match (the message says why)."""


class _NoValidTurn(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason




"""The pure LLM agent: any OpenAI-compatible chat model as a player (base, Chain-of-Thought or RAP scaffold).

A decision never raises because of the model: invalid replies are corrected up to ``retries`` times, rules
explanations are answered (up to ``explain_limit``, not counted as retries), transient HTTP failures are retried,
and when all that fails the agent plays a random legal move and says why in ``Decision.fallback_reason``. Every
request is in ``Decision.calls``.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from agents_app.agents.base import Agent, ChatAnswer, ChatLine, Decision, TurnView
from agents_app.agents.random_agent import short_text_for

from . import composing, fitting, prompts, reply_formats
from .client import ChatCaller, GiveUp, image_part, make_openai_client
from .rap import NoLogprobs, rap_choice
from .replies import ExplainReply, InvalidReply, TextValidator, parse_answer, parse_reply
from .settings import LLMAgentSettings
from .suggestions import suggested_actions

if TYPE_CHECKING:  # client.py imports openai when a client is built: it takes 0.8 s to import
    import openai

logger = logging.getLogger(__name__)


class LLMAgent(Agent):
    reads_match_context = True  # the prompt lists the latest moves and, where the state has none, the chat

    def __init__(
        self,
        settings: LLMAgentSettings,
        *,
        environ: Mapping[str, str] | None = None,
        client: openai.OpenAI | None = None,
        sleep: Callable[[float], None] = time.sleep,
        text_validator: TextValidator | None = None,
    ):
        self.settings = settings
        self.name = settings.name
        self.accepts_images = settings.vision
        self.chat_replies_per_turn = settings.chat_replies
        self.wants_next_actors = settings.scaffold == "rap"  # its predictions need to know whose move comes next
        self.description = f"{settings.model} at {settings.display_url} ({settings.scaffold} scaffold)"
        # The key goes straight into the client; nothing on this object holds it.
        self._client = client if client is not None else make_openai_client(settings, environ)
        self._sleep = sleep
        self.text_validator = text_validator
        self._fit_details: dict = {}  # how the current decision's prompt was fitted (for its calls' records)

    def __repr__(self) -> str:
        return f"LLMAgent({self.settings!r})"

    def decide(self, view: TurnView) -> Decision:
        if not view.legal_actions and not view.text_actions:
            raise ValueError("no legal action to choose from")
        view = self._windowed(view)
        caller = ChatCaller(self._client, self.settings, sleep=self._sleep)
        try:
            message = None
            if self.settings.scaffold == "rap":
                action_id, text = rap_choice(view, caller, self.settings, self.text_validator)
            elif composing.applies(view, self.settings.max_listed_actions):
                action_id, text, message = self._compose(view, caller)
            else:
                action_id, text, message = self._converse(view, caller, self.text_validator)
        except (GiveUp, NoLogprobs, _NoValidReply) as err:
            return self._fallback(view, caller, err.reason)
        except Exception as err:  # a bug or an odd reply object must not stall the match either
            logger.exception("LLM agent %s failed unexpectedly", self.name)
            return self._fallback(view, caller, f"unexpected error: {type(err).__name__}: {err}"[:300])
        return Decision(action_id=action_id, text=text, message=message, calls=tuple(caller.calls))

    # --- talking between moves --------------------------------------------------------------------------------

    def answer(self, view: TurnView, lines: tuple[ChatLine, ...]) -> ChatAnswer:
        """One chat answer to ``lines`` (every scaffold answers directly: nothing to plan). An invalid reply gets
        one correction; after that, or when the endpoint fails, the agent stays quiet and says why."""
        caller = ChatCaller(self._client, self.settings, sleep=self._sleep)
        view = self._windowed(view)
        messages: list[dict] = [
            {"role": "system", "content": prompts.answer_system_prompt(view)},
            {"role": "user", "content": prompts.answer_request(view, lines)},
        ]
        try:
            for _ in range(1 + min(self.settings.retries, 1)):  # the answer and at most one correction
                reply = caller.call(messages, purpose="answer", json_mode=self.settings.json_mode)
                try:
                    return ChatAnswer(parse_answer(reply.text, view, refusal=reply.refusal), tuple(caller.calls))
                except InvalidReply as err:
                    caller.annotate_last(error=f"invalid reply ({err.kind}): {err.problem}")
                    problem = err.problem
                messages.append({"role": "assistant", "content": reply.text or reply.refusal})
                messages.append({"role": "user", "content": prompts.answer_correction(problem)})
            return ChatAnswer(None, tuple(caller.calls), problem=f"no valid chat answer; last problem: {problem}")
        except GiveUp as err:
            return ChatAnswer(None, tuple(caller.calls), problem=err.reason)
        except Exception as err:  # never let a chat answer break anything: it is optional
            logger.exception("LLM agent %s failed to answer the chat", self.name)
            return ChatAnswer(None, tuple(caller.calls), problem=f"unexpected error: {type(err).__name__}: {err}"[:300])

    def _windowed(self, view: TurnView) -> TurnView:
        """The view with only the latest ``history_moves`` moves (the platform hands over up to 20)."""
        keep = self.settings.history_moves
        return replace(view, history=view.history[-keep:] if keep else ())

    # --- base and Chain-of-Thought -----------------------------------------------------------------------------

    def prompt_problem(self, view: TurnView) -> str | None:
        """Why this decision's opening prompt cannot fit the model's context even cut down, or None (nothing is
        sent: the preflight asks this of a game's first decision before a match starts)."""
        if self.settings.scaffold == "rap":
            return None  # RAP's prompts are its own, short ones
        view = self._windowed(view)
        if composing.applies(view, self.settings.max_listed_actions):
            view = composing.step(view).view  # a composed decision opens with its first part's options
        try:
            fitting.fit(self.settings, self._opening(view, reply_formats.first_format(self.settings)))
        except fitting.PromptTooLong as err:
            return f"the prompt does not fit the model's context: {err.reason}"
        return None

    def _opening(self, view: TurnView, fmt: str):
        """The builder of a decision's first messages for each prompt shape (fitting.fit)."""
        # A schema admits moves only, so a model under one is not offered rule explanations it could not ask for.
        explain_limit = 0 if fmt == reply_formats.SCHEMA else self.settings.explain_limit
        cot = self.settings.scaffold == "cot"

        def opening(shape: fitting.Shape) -> list[dict]:
            shown = self._shaped(view, shape)
            turn = (prompts.cot_prompt(shown, labels=shape.labels, max_actions=shape.max_actions) if cot else
                    f"{prompts.turn_prompt(shown, labels=shape.labels, max_actions=shape.max_actions)}\n\n"
                    f"{prompts.move_request()}")
            return [{"role": "system", "content": prompts.system_prompt(shown, explain_limit)},
                    self._user_turn(shown, turn)]

        return opening

    def _compose(self, view: TurnView, caller: ChatCaller) -> tuple[str, str | None, str | None]:
        """A decision made part by part (composing): one exchange per part, the last one completing an action; a
        part with no alternative is taken without asking. Chain-of-Thought reasons once, over the first part."""
        chosen: tuple[str, ...] = ()
        message = None
        longest = max(len(a.parts) for a in (*view.legal_actions, *view.text_actions))
        for _ in range(longest):
            step = composing.step(view, chosen)
            options = step.options()
            if len(options) == 1 and options[0] not in step.completes:
                chosen += (options[0],)
                continue

            def validator(option: str, text: str, step=step) -> str | None:
                whole = step.completes.get(option)
                return self.text_validator(whole.id, text) if whole is not None and self.text_validator else None

            option, text, said = self._converse(step.view, caller, validator, reason=not chosen)
            message = said or message
            whole = step.completes.get(option)
            if whole is not None:
                return whole.id, text, message
            chosen += (option,)
        raise _NoValidReply(f"the parts chosen ({' → '.join(chosen)}) complete no action")

    def _converse(self, view: TurnView, caller: ChatCaller, validator: TextValidator | None = None, *,
                  reason: bool = True) -> tuple[str, str | None, str | None]:
        fmt = reply_formats.first_format(self.settings)
        cot = self.settings.scaffold == "cot" and reason
        try:
            fitted = fitting.fit(self.settings, self._opening(view, fmt))
        except fitting.PromptTooLong as err:
            raise _NoValidReply(f"the prompt does not fit the model's context: {err.reason}") from None
        self._fit_details = fitted.details()
        composed = view.extra.get("composing")
        if composed:
            self._fit_details["composing"] = {"chosen": composed["chosen"], "options": len(view.legal_actions) +
                                              len(view.text_actions)}
        messages = fitted.messages
        if cot:
            reasoning = caller.call(messages, purpose="reason", details=self._fit_details or None)
            messages.append({"role": "assistant", "content": reasoning.text or reasoning.refusal})
            messages.append({"role": "user", "content": prompts.cot_answer_request(view)})
        return self._move_loop(view, caller, messages, fmt, validator, keep=4 if cot else 2)

    @staticmethod
    def _shaped(view: TurnView, shape: fitting.Shape) -> TurnView:
        """The view as a prompt of this shape shows it (fitting.Shape)."""
        if shape.history and shape.observation_chars is None:
            return view
        observation = view.observation
        if shape.observation_chars is not None:
            observation = replace(observation, text=fitting.shorten(observation.text, shape.observation_chars))
        if not shape.history:
            view = replace(view, history=(), chat_log=())
        return replace(view, observation=observation)

    def _move_loop(
        self, view: TurnView, caller: ChatCaller, messages: list[dict], fmt: str, validator: TextValidator | None,
        keep: int = 2,
    ) -> tuple[str, str | None, str | None]:
        purpose, corrections, explains = "move", 0, 0
        while True:
            dropped = fitting.trim_conversation(self.settings, messages, keep) if purpose != "move" else []
            reply, fmt = self._ask(view, caller, messages, purpose, fmt, dropped)
            try:
                # A schema already bounds the reply to legal ids, so a reply its server garbled is read leniently too.
                parsed = parse_reply(reply.text, view, refusal=reply.refusal, text_validator=validator,
                                     lenient=fmt in (reply_formats.TEXT, reply_formats.SCHEMA))
                if isinstance(parsed, ExplainReply) and explains >= self.settings.explain_limit:
                    raise InvalidReply(
                        "explain-limit",
                        f"you already had {explains} rules explanation(s) this move, the most allowed; choose now",
                    )
            except InvalidReply as err:
                caller.annotate_last(error=f"invalid reply ({err.kind}): {err.problem}")
                if corrections >= self.settings.retries:
                    raise _NoValidReply(
                        f"no valid reply after {corrections} correction(s); last problem: {err.problem}"
                    ) from None
                corrections += 1
                purpose, answer = "correction", prompts.correction(view, err.problem)
            else:
                if not isinstance(parsed, ExplainReply):
                    self._note_suggestions(caller, messages, view, parsed.action_id)
                    return parsed.action_id, parsed.text, parsed.message
                explains += 1
                purpose, answer = "explain", prompts.explanation(view, parsed.topic)
            messages.append({"role": "assistant", "content": reply.text or reply.refusal})
            messages.append({"role": "user", "content": answer})

    @staticmethod
    def _note_suggestions(caller: ChatCaller, messages: list[dict], view: TurnView, chosen: str) -> None:
        """Record the move with whether it is an action the messages sent showed as an example (suggestions) and
        whether it is the first one listed (agents_app.decision_selectors sums both up per agent)."""
        listed = [a.id for a in view.legal_actions] + [t.id for t in view.text_actions]
        suggested = suggested_actions(messages, set(listed))
        details = dict(caller.calls[-1].details or {}) if caller.calls else {}
        details.update(suggested_actions=suggested[:5], copied_suggestion=chosen in suggested,
                       first_listed=bool(listed) and chosen == listed[0])
        caller.annotate_last(parsed_action=chosen, details=details)

    def _ask(self, view: TurnView, caller: ChatCaller, messages: list[dict], purpose: str, fmt: str,
             dropped: list[str] = ()):
        """One move request in reply format ``fmt``, stepping down (schema, JSON mode, free text) when the endpoint
        refuses the format itself; the reply and the format it was given in."""
        while True:
            details = {"reply_format": fmt, **(self._fit_details if purpose == "move" else {})}
            if dropped:
                details["dropped_to_fit"] = list(dropped)
            try:
                reply = caller.call(messages, purpose=purpose, details=details,
                                    response_format=reply_formats.response_format(fmt, view, self.settings))
                return reply, fmt
            except GiveUp as err:
                lower = reply_formats.step_down(fmt)
                if lower is None or not reply_formats.refused_format(err.status):
                    raise
                logger.info("LLM agent %s: the endpoint refused reply format %s (%s); trying %s",
                            self.name, fmt, err.reason, lower)
                fmt = lower

    def _user_turn(self, view: TurnView, text: str) -> dict:
        if self.settings.vision and view.image is not None:
            return {"role": "user", "content": [{"type": "text", "text": text}, image_part(view.image)]}
        return {"role": "user", "content": text}

    # --- giving up -----------------------------------------------------------------------------------------------

    def _fallback(self, view: TurnView, caller: ChatCaller, reason: str) -> Decision:
        logger.warning("LLM agent %s falls back to a random legal action: %s", self.name, reason)
        action_id, text = random_legal_choice(view)
        return Decision(action_id=action_id, text=text, calls=tuple(caller.calls), fallback_reason=reason)


class _NoValidReply(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def random_legal_choice(view: TurnView) -> tuple[str, str | None]:
    """A random move seeded by the view, as RandomAgent plays; a predefined action whenever one exists,
    because a made-up text for an open-ended action might itself be rejected by the engine."""
    rng = random.Random(view.seed)
    if view.legal_actions:
        return rng.choice(view.legal_actions).id, None
    spec = rng.choice(view.text_actions)
    return spec.id, short_text_for(spec.hint, rng)[: spec.max_length]

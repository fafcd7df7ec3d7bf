"""Reasoning-via-Planning (Hao et al. 2023) as GameBench used it: Monte Carlo tree search over model predictions.

The root is the real observation and its legal actions (open-ended actions first become a few candidate texts).
Deeper nodes are the model's predictions of the next observation and of the actions available there. The reward
of an action mixes (a) the next-token probability that the model picks it from the numbered list and (b) the
probability of "yes" when asked whether it is a good action; every path ends with (c) the probability of "yes" to
"Will you eventually win from this position?". Children are chosen by UCT; after ``rap_iterations`` iterations
(depth limit ``rap_depth``) the most visited root action is played. All of this needs token log-probabilities:
without them the search cannot run, and the agent says so instead of guessing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agents_app.agents.base import TurnView

from . import rap_prompts as rp
from .client import ChatCaller, ChatReply, DeadlineReached, GiveUp, TokenChoice
from .replies import TextValidator
from .settings import LLMAgentSettings

NO_LOGPROBS_REASON = "endpoint gives no logprobs: RAP cannot run (use scaffold base or cot)"
# Only the top 5 alternatives of a token come back, so at most 5 actions per node get a real prior; the rest
# would be expanded blind. Keeping the 5 likeliest also bounds the self-evaluation calls per node.
MAX_BRANCHING = 5
ACTION_WEIGHT = 0.5  # share of the "model would pick it" probability in an action's reward; the rest is "good?"
EXPLORATION = 1.0  # UCT exploration constant (the llm-reasoners default)
_SHORT_ANSWER_TOKENS = 3  # a number or yes/no; only the first token's probabilities matter
_TOKENS_SCANNED = 5  # how far into a reply to look for the number or yes/no token


class NoLogprobs(Exception):
    def __init__(self, reason: str = NO_LOGPROBS_REASON):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Option:
    """An action at a node: real ones (root) carry the id and text to play; predicted ones only a label."""

    label: str
    action_id: str | None = None
    text: str | None = None


@dataclass(eq=False)
class Node:
    depth: int
    observation: str | None  # None until predicted
    options: list[Option] | None = None  # None until predicted
    option: Option | None = None  # the action that led here from the parent
    parent: Node | None = None
    fast_reward: float = 0.0
    children: list[Node] = field(default_factory=list)
    visits: int = 0
    value_sum: float = 0.0
    win: float | None = None

    @property
    def mean_value(self) -> float:
        return self.value_sum / self.visits if self.visits else 0.0


def rap_choice(
    view: TurnView, caller: ChatCaller, settings: LLMAgentSettings, text_validator: TextValidator | None = None
) -> tuple[str, str | None]:
    """The action RAP plays: (action_id, text or None). Raises NoLogprobs or GiveUp when it cannot search."""
    image = view.image if settings.vision else None
    options = root_options(view, caller, text_validator, image)
    if not options:
        raise GiveUp("RAP has no usable action: no acceptable text was proposed for the open-ended actions")
    if len(options) == 1:  # nothing to decide, nothing to spend on
        return options[0].action_id, options[0].text
    root = Node(depth=0, observation=view.observation.text, options=options)
    best = RapSearch(view, caller, settings, image).run(root)
    return best.action_id, best.text


def root_options(
    view: TurnView, caller: ChatCaller, text_validator: TextValidator | None, image: bytes | None
) -> list[Option]:
    options = [Option(a.label or a.id, a.id) for a in view.legal_actions]
    for spec in view.text_actions:
        messages = rp.options_messages(view, view.observation.text, spec, image)
        reply = caller.call(messages, purpose="rap-options")
        texts = rp.text_options(reply.text, spec, text_validator)
        if not texts:
            caller.annotate_last(error=f"no acceptable text for {spec.id!r} in the reply")
        options += [Option(f"{spec.label}: {text}", spec.id, text) for text in texts]
    return options


class RapSearch:
    def __init__(self, view: TurnView, caller: ChatCaller, settings: LLMAgentSettings, image: bytes | None = None):
        self._view = view
        self._caller = caller
        self._settings = settings
        self._root_image = image

    def run(self, root: Node) -> Option:
        for _ in range(self._settings.rap_iterations):
            try:
                self._iterate(root)
            except DeadlineReached:
                # The search is anytime: out of time, play the best action found so far if there is one.
                if any(child.visits for child in root.children):
                    break
                raise
        best = max(root.children, key=lambda c: (c.visits, c.mean_value, c.fast_reward))
        # The choice and the search values behind it go on the decision's last call, for the transcript, beside what
        # that call itself read (its details and any error, e.g. the deadline, stay).
        last = self._caller.calls[-1] if self._caller.calls else None
        self._caller.annotate_last(
            parsed_action=best.option.action_id or "",
            error=last.error if last else "",
            details={
                **((last.details or {}) if last else {}),
                "chosen": best.option.label,
                "root": [
                    {
                        "action": child.option.label,
                        "visits": child.visits,
                        "mean_value": round(child.mean_value, 4),
                        "fast_reward": round(child.fast_reward, 4),
                    }
                    for child in root.children
                ],
            },
        )
        return best.option

    def _iterate(self, root: Node) -> None:
        path, node = [root], root
        while True:
            if node.observation is None:
                self._predict(node)
            if node.depth >= self._settings.rap_depth or not node.options:
                break
            if not node.children:
                self._expand(node)
            node = self._select(node)
            path.append(node)
        rewards = [n.fast_reward for n in path[1:]] + [self._win(node)]
        value = sum(rewards) / len(rewards)
        for visited in path:
            visited.visits += 1
            visited.value_sum += value

    # --- the four model questions --------------------------------------------------------------------------------

    def _expand(self, node: Node) -> None:
        options = node.options or []
        image = self._image_for(node)
        if len(options) > 1:
            reply = self._ask(
                rp.choice_messages(self._view, node.observation, [o.label for o in options], image), "rap-action"
            )
            probabilities = number_probabilities(reply.logprobs, len(options))
            likeliest = max(range(len(options)), key=lambda i: probabilities[i])
            read = {o.label: round(p, 4) for o, p in zip(options, probabilities, strict=True) if p > 0}
            self._caller.annotate_last(parsed_action=_shown(options[likeliest]), details={"probabilities": read})
        else:
            probabilities = [1.0]
        ranked = sorted(range(len(options)), key=lambda i: -probabilities[i])[:MAX_BRANCHING]
        total = sum(probabilities[i] for i in ranked)
        children = []  # attached only when complete, so a deadline mid-way leaves the node unexpanded
        for i in ranked:
            prior = probabilities[i] / total if total > 0 else 1 / len(ranked)
            reply = self._ask(
                rp.evaluate_messages(self._view, node.observation, options[i].label, image), "rap-evaluate"
            )
            good = yes_probability(reply.logprobs)
            reward = ACTION_WEIGHT * prior + (1 - ACTION_WEIGHT) * good
            self._caller.annotate_last(
                parsed_action=_shown(options[i]),
                details={"p_yes": round(good, 4), "prior": round(prior, 4), "reward": round(reward, 4)},
            )
            children.append(Node(node.depth + 1, None, option=options[i], parent=node, fast_reward=reward))
        node.children = children

    def _predict(self, node: Node) -> None:
        parent = node.parent
        # At the root the engine knows who acts after each real action; deeper, the model guesses.
        actor = self._view.next_actors.get(node.option.action_id) if node.depth == 1 else None
        messages = rp.predict_messages(
            self._view, parent.observation, node.option.label, self._image_for(parent), actor
        )
        reply = self._caller.call(messages, purpose="rap-predict")
        others, state, actions = rp.prediction(reply.text)
        self._caller.annotate_last(
            parsed_action=_shown(node.option),
            details={"next_actor": actor or "", "others": others[:200], "predicted_actions": actions},
        )
        node.observation = state or "(no prediction)"
        node.options = [Option(label) for label in actions]

    def _win(self, node: Node) -> float:
        if node.win is None:
            reply = self._ask(rp.win_messages(self._view, node.observation, self._image_for(node)), "rap-win")
            node.win = yes_probability(reply.logprobs)
            self._caller.annotate_last(parsed_action="yes" if node.win >= 0.5 else "no", details={"p_yes": node.win})
        return node.win

    def _ask(self, messages: list[dict], purpose: str) -> ChatReply:
        """A short question whose answer is read from the first token's log-probabilities."""
        reply = self._caller.call(messages, purpose=purpose, logprobs=True, max_tokens=_SHORT_ANSWER_TOKENS)
        if not reply.logprobs:
            self._caller.annotate_last(error=NO_LOGPROBS_REASON)
            raise NoLogprobs()
        return reply

    def _image_for(self, node: Node) -> bytes | None:
        return self._root_image if node.depth == 0 else None  # predicted states have no picture

    def _select(self, node: Node) -> Node:
        unvisited = [c for c in node.children if not c.visits]
        if unvisited:
            return max(unvisited, key=lambda c: c.fast_reward)
        log_total = math.log(node.visits)
        return max(node.children, key=lambda c: c.mean_value + EXPLORATION * math.sqrt(log_total / c.visits))


def _shown(option: Option) -> str:
    """How a transcript row names an action: its id at the root (a real action), its label deeper (a guess)."""
    return (option.action_id or option.label)[:200]


# --- reading log-probabilities ----------------------------------------------------------------------------------


def number_probabilities(logprobs: Sequence[TokenChoice] | None, count: int) -> list[float]:
    """Probability that the model answers 1..count, from the first token that offers any of these numbers."""
    found = _first_token_matches(logprobs, _as_number)
    return [found.get(str(number), 0.0) for number in range(1, count + 1)]


def yes_probability(logprobs: Sequence[TokenChoice] | None) -> float:
    """P(yes) / (P(yes) + P(no)) at the first token offering yes or no; 0.5 when the model offered neither."""
    found = _first_token_matches(logprobs, _as_yes_no)
    yes, no = found.get("yes", 0.0), found.get("no", 0.0)
    return yes / (yes + no) if yes + no > 0 else 0.5


def _first_token_matches(logprobs: Sequence[TokenChoice] | None, key: Callable[[str], str | None]) -> dict:
    for choice in (logprobs or ())[:_TOKENS_SCANNED]:
        alternatives = {**choice.alternatives, choice.token: choice.logprob}
        found: dict[str, float] = {}
        for token, logprob in alternatives.items():
            name = key(token)
            if name is not None:
                found[name] = found.get(name, 0.0) + math.exp(logprob)
        if found:
            return found
    return {}


def _as_number(token: str) -> str | None:
    cleaned = token.strip().rstrip(".)")
    return str(int(cleaned)) if cleaned.isascii() and cleaned.isdigit() else None


def _as_yes_no(token: str) -> str | None:
    cleaned = token.strip().strip(".,!:;\"'").lower()
    return cleaned if cleaned in ("yes", "no") else None

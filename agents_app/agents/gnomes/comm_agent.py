"""The communicating agent of seeds/003: language module + AISMCTS-F planner, flags in between.

Each decision: read the partner's chat since the agent's last move into one input flag (the LLM parser
when LLMSettings are configured in the environment, else the rule-based parser), plan, and turn the
output flag back into a message: an answer to a question, "I cannot ..." for a requested move the agent's
own side blocks, or "Can you ...?" for the partner move the search favours.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping

from agents_app.agents.base import Agent, Decision, TurnView

from .belief import Suggestion
from .deliberation import Deliberation, check_game, deliberate, planner_config
from .flags import Flag
from .intents import RuleBasedParser, combine
from .llm import LLMParser, LLMSettings, make_client
from .messages import InquiryFacts, answer_inquiry, cannot, suggest

# Parses are cached by text for the life of the process: the whole chat is re-read at every decision
# (agents keep no state), and an LLM should be asked about each partner line once, not once per turn.
_PARSE_CACHE_LIMIT = 4096
_parse_cache: dict[tuple[str, str], Flag] = {}


def _cached(kind: str, parse: Callable[[str], Flag]) -> Callable[[str], Flag]:
    def cached_parse(text: str) -> Flag:
        key = (kind, text)
        if key not in _parse_cache:
            if len(_parse_cache) >= _PARSE_CACHE_LIMIT:
                _parse_cache.clear()
            _parse_cache[key] = parse(text)
        return _parse_cache[key]

    return cached_parse


class GnomesCommAgent(Agent):
    name = "gnomes-comm"
    description = (
        "Gnomes at Night: AISMCTS-F planner with flag exchange; reads the partner's chat, answers questions, "
        "reports its own walls and asks the partner for moves."
    )

    def __init__(
        self,
        budget: int = 1000,
        exploration: float = math.sqrt(2),
        worlds: int = 32,
        depth: int = 12,
        rollout: str = "table",
        environ: Mapping[str, str] | None = None,
    ):
        self.config = planner_config(budget, exploration, worlds, depth, rollout)
        self.llm_settings = LLMSettings.from_env(os.environ if environ is None else environ)

    def decide(self, view: TurnView) -> Decision:
        check_game(view)
        parse = self._parser()
        data = view.observation.data
        latest = partner_lines_since_my_move(data, view.seat)
        flags = [parse(text) for text in latest]
        input_flag = combine(flags)
        result = deliberate(view, self.config, parse, input_flag)
        question = next((text for text, flag in zip(latest, flags, strict=True) if flag == Flag.INQUIRY), "")
        return Decision(action_id=result.selection.action, message=self._message(view, result, question))

    def _parser(self) -> Callable[[str], Flag]:
        if self.llm_settings is not None:
            return _cached("llm", LLMParser(make_client(self.llm_settings), self.llm_settings).parse)
        return _cached("rules", RuleBasedParser().parse)

    def _message(self, view: TurnView, result: Deliberation, question: str) -> str | None:
        selection = result.selection
        flag = selection.output_flag
        if flag == Flag.INQUIRY:
            return self._answer(view, result, question)
        if flag == Flag.REJECT:
            return cannot(selection.rejected_request)
        if flag.action is None or _repeats_done_suggestion(view, result, flag):
            return None
        return suggest(flag)

    def _answer(self, view: TurnView, result: Deliberation, question: str) -> str:
        data = view.observation.data
        facts = inquiry_facts(data, result)
        if self.llm_settings is None:
            return answer_inquiry(question, facts)
        return answer_inquiry(question, facts, client=make_client(self.llm_settings), settings=self.llm_settings)


def partner_lines_since_my_move(data: Mapping, seat: int) -> list[str]:
    """The partner's chat lines posted after the agent's latest move (all of them before its first)."""
    my_moves = [entry for entry in data.get("history") or () if entry["seat"] == seat]
    since = int(my_moves[-1]["turn"]) if my_moves else 0
    return [str(line["text"]) for line in data.get("chat") or () if line["seat"] != seat and line["turn"] >= since]


def inquiry_facts(data: Mapping, result: Deliberation) -> InquiryFacts:
    """What an answer may use: the agent's own side at the token, the treasure only if it sees it."""
    problem = result.problem
    root = problem.root_cell
    moves = ("right", "up", "left", "down")
    open_moves = tuple(m for i, m in enumerate(moves, start=1) if problem.ego_next[root * 5 + i] != root)
    blocked = tuple(m for m in moves if m not in open_moves)
    suggestion = result.selection.suggestion
    return InquiryFacts(
        token=tuple(data["token"]),
        open_moves=open_moves,
        blocked_moves=blocked,
        treasure=tuple(data["treasure"]) if data.get("treasure") is not None else None,
        suggestion=suggestion.action if suggestion is not None else None,
        turn=int(data["turn"]),
        turn_cap=int(data["turn_cap"]),
    )


def _repeats_done_suggestion(view: TurnView, result: Deliberation, flag: Flag) -> bool:
    """Whether the partner just carried out this same suggestion: saying it again would be spam.

    The simulated partner (and, we assume, a person) keeps following a request it has carried out until
    told otherwise, so silence means "keep going" for as long as the partner keeps doing it.
    """
    suggestions: list[Suggestion] = result.knowledge.suggestions
    last_move = view.observation.data.get("last_partner_move")
    if not suggestions or last_move is None:
        return False
    last = suggestions[-1]
    return (
        last.action == flag.action
        and last_move["action"] == last.action
        and bool(last_move["moved"])
        and int(last_move["turn"]) > last.turn
    )

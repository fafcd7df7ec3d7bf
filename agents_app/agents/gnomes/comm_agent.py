"""The communicating agent of seeds/003: language module + AISMCTS-F planner, flags in between.

Each decision: read the partner's chat since the agent's last move into one input flag (the LLM parser
when an endpoint is configured in the environment, see ``llm.settings_from_env``, else the rule-based parser),
plan, and turn the output flag back into at most one line (``conversation``): an answer to a question, "I
cannot ..." for a requested move the agent's own side blocks, "OK, moving ..." for one it carries out, and
"Can you ...?" for the partner move the search favours when asking is news.

With a model, one ChatCaller (the platform's client code) serves the whole decision: its deadline bounds every
request, and its records come back as ``Decision.calls``, stored with the move's event like any agent's calls.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable, Mapping

from agents_app.agents.base import Agent, Decision, TurnView
from agents_app.agents.llm.client import ChatCaller, make_openai_client

from .belief import Suggestion
from .conversation import compose, partner_lines, partner_lines_since_my_move
from .deliberation import Deliberation, check_game, deliberate, planner_config
from .flags import Flag
from .intents import RuleBasedParser, combine
from .llm import LLMParser, min_agreement_from_env, settings_from_env
from .messages import InquiryFacts, answer_inquiry

# Parses are cached by text for the life of the process: the whole chat is re-read at every decision
# (agents keep no state), and an LLM should be asked about each partner line once, not once per turn.
logger = logging.getLogger(__name__)

_PARSE_CACHE_LIMIT = 4096
# The LLM parser is judged against the rules once this many partner lines of a round have been read by both.
AGREEMENT_MIN_LINES = 6
_parse_cache: dict[tuple[str, str], Flag] = {}


def _cached(kind: str, parse: Callable[[str], Flag], keep: Callable[[], bool] = lambda: True) -> Callable[[str], Flag]:
    """``parse`` through the cache. A result is kept for the process only when ``keep()`` says so right after
    parsing (a model that failed once, the rules answering instead, is asked again at a later decision); within
    this parser's decision every line is parsed once either way."""
    this_decision: dict[str, Flag] = {}

    def cached_parse(text: str) -> Flag:
        key = (kind, text)
        if key in _parse_cache:
            return _parse_cache[key]
        if text not in this_decision:
            this_decision[text] = parse(text)
            if keep():
                if len(_parse_cache) >= _PARSE_CACHE_LIMIT:
                    _parse_cache.clear()
                _parse_cache[key] = this_decision[text]
        return this_decision[text]

    return cached_parse


class GnomesCommAgent(Agent):
    name = "gnomes-comm"
    games = frozenset({"gnomes"})  # reads the Gnomes at Night observation and its maze
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
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.config = planner_config(budget, exploration, worlds, depth, rollout)
        self._environ = os.environ if environ is None else environ
        self.llm_settings = settings_from_env(self._environ)
        self.min_agreement = min_agreement_from_env(self._environ)
        self._sleep = sleep  # between retries of a model request (tests pass one that does not wait)

    def decide(self, view: TurnView) -> Decision:
        check_game(view)
        caller = self._caller()
        data = view.observation.data
        parse, note = self._parser(caller, data, view.seat)
        latest = partner_lines_since_my_move(data, view.seat)
        flags = [parse(text) for text in latest]
        input_flag = combine(flags)
        result = deliberate(view, self.config, parse, input_flag)
        question = next((text for text, flag in zip(latest, flags, strict=True) if flag == Flag.INQUIRY), "")
        message = compose(
            data,
            view.seat,
            result.selection,
            input_flag,
            answer=lambda: self._answer(view, result, question, caller),
            request_just_followed=lambda flag: _repeats_done_suggestion(view, result, flag),
        )
        calls = tuple(caller.calls) if caller is not None else ()
        return Decision(action_id=result.selection.action, message=message, calls=calls, note=note)

    def _caller(self) -> ChatCaller | None:
        """The decision's chat caller, or None without a configured endpoint (the rules then do everything)."""
        if self.llm_settings is None:
            return None
        client = make_openai_client(self.llm_settings, self._environ)
        return ChatCaller(client, self.llm_settings, sleep=self._sleep)

    def _parser(self, caller: ChatCaller | None, data: Mapping, seat: int) -> tuple[Callable[[str], Flag], str | None]:
        """The parser this decision trusts, and the note saying which (None without a model).

        The LLM parser is checked against the rules on every partner line of the round so far (each parsed once
        per process, through the cache): once AGREEMENT_MIN_LINES lines are in and they agree on fewer than
        ``min_agreement`` of them, the model is reading the partner wrong (a small model calls nearly everything
        NONE, which no reply check catches) and the rules parse instead, logged and noted with the move.
        """
        rules = _cached("rules", RuleBasedParser().parse)
        if caller is None:
            return rules, None
        parser = LLMParser(caller)
        kind = f"llm:{self.llm_settings.base_url}:{self.llm_settings.model}"
        llm = _cached(kind, parser.parse, keep=lambda: not parser.last_used_fallback)
        agreed = judged = 0
        for text in partner_lines(data, seat):
            flag = llm(text)
            if (kind, text) in _parse_cache:  # the model answered (a failed call fell back to the rules)
                judged += 1
                agreed += flag == rules(text)
        share = f"{agreed}/{judged} partner lines"
        if judged >= AGREEMENT_MIN_LINES and agreed < self.min_agreement * judged:
            logger.warning(
                "gnomes-comm: the LLM intent parser agrees with the rules on %s, below %.0f%%; using the rules",
                share, self.min_agreement * 100,
            )
            return rules, (
                f"intent parser: rules (the LLM agreed with them on {share}, below {self.min_agreement:.0%})"
            )
        return llm, f"intent parser: LLM (agrees with the rules on {share})"

    def _answer(self, view: TurnView, result: Deliberation, question: str, caller: ChatCaller | None) -> str:
        facts = inquiry_facts(view.observation.data, result)
        return answer_inquiry(question, facts, caller)


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

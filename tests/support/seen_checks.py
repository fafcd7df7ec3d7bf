"""Checks of what people and agents receive of a seat: no other seat's secret in a page or a prompt, written out or
derivable.

Two kinds of leak are looked for:

- *Written* leaks: a string one seat may know (``State.secrets()``) in another seat's page HTML or agent prompts, or
  any secret in the public page. HTML and prompts can carry a value escaped, so each secret is looked for as written,
  HTML-escaped and JSON-escaped (``seen_forms``).
- *Derived* leaks, which carry no secret word: "after this vote nobody acts" tells a voter the seat voted for is the
  traitor. ``twin_differences`` compares what a seat is given in two *twin* states it cannot tell apart (the same
  observation and the same legal and text actions): its whole ``SeatView`` (facts, text, actions, next-actor hint) and
  every agent prompt built from it must be the same, word for word, and so must its page and the public page
  (``page_twin_differences``). Any difference is information it should not have.

Prompts are built as the LLM agent builds them (agents_app.agents.llm.prompts and rap_prompts) from the agent's
``TurnView`` (agents_app.services.turn_view), with every prompt option that changes their words on: rule explanations,
chat, and RAP's choice, evaluation, text options, prediction (told the view's next actor) and win questions.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable

from agents_app.agents.base import TurnView
from agents_app.agents.dialogue import prompts as dialogue_prompts
from agents_app.agents.llm import prompts, rap_prompts
from agents_app.services import turn_view
from gameplay.models import Match
from gameplay.reads import selectors
from gameplay.web import rendering

# RAP asks about at most this many of the root's actions per decision in these checks (a Hive position offers
# hundreds; every label is already in the turn prompt, which lists them all).
RAP_ACTIONS_CHECKED = 4
# Rule explanations asked for per decision (an LLM configuration's largest explain_limit in the tests).
EXPLAIN_LIMIT = 3


def foreign_secrets(state, seat: int | None) -> list[str]:
    """The secrets ``seat`` may not see: every other seat's, but those it holds too (the same word dealt twice is
    no evidence of a leak); for the public (None), every secret."""
    secrets = {int(k): [str(v) for v in values if v] for k, values in state.secrets().items()}
    own = set(secrets.get(seat, ())) if seat is not None else set()
    return sorted({v for other, values in secrets.items() if other != seat for v in values if v not in own})


def seen_forms(value: str) -> set[str]:
    """How a secret can appear in HTML or a prompt: as written, HTML-escaped (attributes and text), JSON-escaped
    (hx-vals, data attributes, JSON objects in prompts), and JSON-escaped inside HTML."""
    as_json = {json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    return {value, html.escape(value), html.escape(value, quote=False), *as_json, *map(html.escape, as_json)}


def leaked(text: str, hidden: Iterable[str]) -> list[str]:
    """The hidden values found in ``text`` in any of their seen forms."""
    return [value for value in hidden if any(form in text for form in seen_forms(value))]


def agent_view(state, seat: int, seed: int) -> TurnView:
    """What the platform hands an agent at ``seat``: its SeatView with the next-actor hint, as a TurnView."""
    return turn_view(state.seat_view(seat, with_next_actors=True), seed)


def agent_prompts(view: TurnView, dialogue=None) -> dict[str, str]:
    """Every prompt an LLM agent may send for this decision, keyed by what it is (base, CoT, system, explanations,
    RAP), as text. An agent not to act is asked only to answer the chat."""
    found = {"answer-system": prompts.answer_system_prompt(view), "answer": prompts.answer_request(view, ())}
    if not view.legal_actions and not view.text_actions:
        return found
    found |= {
        "system": prompts.system_prompt(view, explain_limit=EXPLAIN_LIMIT),
        "turn": prompts.turn_prompt(view),
        "cot": prompts.cot_prompt(view),
        "cot-answer": prompts.cot_answer_request(view),
        "correction": prompts.correction(view, "not an action"),
    }
    for topic in view.move_topics[:EXPLAIN_LIMIT]:
        found[f"explain {topic}"] = prompts.explanation(view, topic)
    observation = view.observation.text
    labels = [a.label or a.id for a in view.legal_actions]
    if labels:
        found["rap-choice"] = _text(rap_prompts.choice_messages(view, observation, labels, None))
    for action in view.legal_actions[:RAP_ACTIONS_CHECKED]:
        label = action.label or action.id
        found[f"rap-evaluate {action.id}"] = _text(rap_prompts.evaluate_messages(view, observation, label, None))
        actor = view.next_actors.get(action.id)
        found[f"rap-predict {action.id}"] = _text(rap_prompts.predict_messages(view, observation, label, None, actor))
    for spec in view.text_actions:
        found[f"rap-options {spec.id}"] = _text(rap_prompts.options_messages(view, observation, spec, None))
    found["rap-win"] = _text(rap_prompts.win_messages(view, observation, None))
    if dialogue is not None:  # the solver-guided agent and its control ask with the solver's own turn prompt
        for instruction_set in dialogue.instruction_sets:
            for instruction in instruction_set.instructions:
                messages = dialogue_prompts.build_turn_messages(view, instruction_set.text(instruction))
                found[f"dialogue {instruction_set.name} {instruction}"] = _text(messages)
    return found


def _text(messages) -> str:
    return json.dumps(messages, ensure_ascii=False, default=str)


def prompt_leaks(state, seat: int, seed: int) -> list[str]:
    """Where the agent at ``seat`` would be shown another seat's secret: "<prompt>: <secret>" per finding. Every
    prompt is built, secrets or not, so one that cannot be built fails here too."""
    hidden = foreign_secrets(state, seat)
    asked = agent_prompts(agent_view(state, seat, seed), state.game.spec.dialogue)
    return [f"{name}: {value!r}" for name, text in asked.items() for value in leaked(text, hidden)]


def indistinguishable(one, other, seat: int) -> list[str]:
    """Why ``seat`` could tell the two states apart (its observation, its legal or text actions, who acts), or []:
    the twins' precondition."""
    found = []
    a, b = one.observation(seat), other.observation(seat)
    if a.text != b.text or a.data != b.data:
        found.append("the observations differ")
    if one.legal_actions(seat) != other.legal_actions(seat):
        found.append("the legal actions differ")
    if one.text_actions(seat) != other.text_actions(seat):
        found.append("the text actions differ")
    if one.current_seats() != other.current_seats():
        found.append("different seats act")
    return found


# What a SeatView shows of a seat, compared field by field between twins (spec, rules and options are the game's).
VIEW_FIELDS = ("facts", "text", "legal_actions", "text_actions", "to_act", "terminal", "awaiting_verdict", "teams",
               "chat_open", "team_chat", "own_moves", "move_topics", "next_actors")


def twin_differences(one, other, seat: int, seed: int = 0) -> list[str]:
    """What ``seat`` is given differently in two states it cannot tell apart: SeatView fields (with the next-actor
    hint) and agent prompts, each named. [] means nothing derived from the hidden difference reaches the seat."""
    precondition = indistinguishable(one, other, seat)
    assert not precondition, f"not twins for seat {seat}: {', '.join(precondition)}"
    view_a = one.seat_view(seat, with_next_actors=True)
    view_b = other.seat_view(seat, with_next_actors=True)
    found = [f"SeatView.{name}" for name in VIEW_FIELDS if getattr(view_a, name) != getattr(view_b, name)]
    dialogue = one.game.spec.dialogue
    asked_a = agent_prompts(turn_view(view_a, seed), dialogue)
    asked_b = agent_prompts(turn_view(view_b, seed), dialogue)
    names = sorted(set(asked_a) | set(asked_b))
    found += [f"prompt {name}" for name in names if asked_a.get(name) != asked_b.get(name)]
    return found


# --- pages (these need the database: a real match holds the state) ------------------------------------------------


def stand_at(match: Match, state) -> Match:
    """The match holding ``state`` (finished, with its result, when the state is over), as read back."""
    fields = {"state": state.to_json()}
    if state.is_terminal():
        fields |= {"status": Match.Status.FINISHED, "scores": state.scores(), "winner": state.winner(),
                   "final_teams": selectors.final_teams(state)}
    Match.objects.filter(pk=match.pk).update(**fields)
    return Match.objects.get(pk=match.pk)


def without_links(page: str, seats) -> str:
    """The page without the seats' link tokens: random letters that are no game information, where a short secret
    (an Air, Land & Sea card such as "S6") can turn up by chance."""
    for seat in seats:
        page = page.replace(seat.token, "<seat token>")
    return page


def page_of(match: Match, seat_index: int | None, seats=None) -> str:
    """The page fragments of ``seat_index`` (None: the public) as the match stands, its seats' tokens taken out."""
    seats = list(match.seats.order_by("index")) if seats is None else seats
    seat = next(s for s in seats if s.index == seat_index) if seat_index is not None else None
    return without_links(rendering.seat_fragments(selectors.seat_view(match, seat, seats=seats)), seats)


def page_twin_differences(match: Match, one, other, seat: int) -> list[str]:
    """The pages that differ between two states ``seat`` cannot tell apart, held in turn by the same match: the
    seat's own, and the public one when the public cannot tell them apart either."""
    viewers = [seat] + ([None] if one.observation(None) == other.observation(None) else [])
    pages = [{viewer: page_of(stand_at(match, state), viewer) for viewer in viewers} for state in (one, other)]
    return [f"page of {'the public' if v is None else f'seat {v}'}" for v in viewers if pages[0][v] != pages[1][v]]

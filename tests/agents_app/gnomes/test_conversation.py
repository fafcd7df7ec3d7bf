"""The communicating agent talks with a purpose: answers, acknowledgements, refusals with the wall, and requests
only when they are news; never the same line twice running without a partner line between."""

from __future__ import annotations

from agents_app.agents.gnomes.comm_agent import GnomesCommAgent
from agents_app.agents.gnomes.conversation import acknowledge, compose, standing_request
from agents_app.agents.gnomes.evaluation import play_round
from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.intents import RuleBasedParser
from agents_app.agents.gnomes.messages import cannot, suggest
from agents_app.agents.gnomes.partner import SimulatedPartner
from agents_app.agents.gnomes.select import Selection

AGENT, PARTNER = 1, 0


def chat(*lines: tuple[int, str]) -> dict:
    return {"chat": [{"seat": seat, "text": text, "turn": i} for i, (seat, text) in enumerate(lines)]}


def say(data, selection, input_flag=Flag.NONE, followed=False):
    return compose(
        data, AGENT, selection, input_flag, answer=lambda: "ANSWER", request_just_followed=lambda _: followed
    )


def test_a_question_is_answered_and_nothing_else_is_said():
    assert say(chat((PARTNER, "where is it?")), Selection("up", Flag.INQUIRY, Flag.RIGHT), Flag.INQUIRY) == "ANSWER"


def test_a_refusal_names_the_wall_and_stands_alone():
    line = say(chat((PARTNER, "go down")), Selection("up", Flag.REJECT, Flag.RIGHT, "down"), Flag.DOWN)
    assert line == cannot("down")
    assert RuleBasedParser().parse(line) == Flag.REJECT  # a request in the same line would hide the wall


def test_a_request_the_agent_follows_is_acknowledged_with_any_new_request():
    data = chat((PARTNER, "go right"))
    assert say(data, Selection("right", Flag.UP, Flag.UP), Flag.RIGHT) == "OK, moving right. " + suggest(Flag.UP)
    assert say(data, Selection("stay", Flag.NONE, None), Flag.STAY) == acknowledge("stay") == "OK, I'll stay put."
    # The partner (and the planner's own belief) still read the request at the end of the line.
    assert RuleBasedParser().parse("OK, moving right. " + suggest(Flag.UP)) == Flag.UP


def test_the_same_request_is_not_made_again_until_the_partner_says_something():
    asked = chat((PARTNER, "hi"), (AGENT, suggest(Flag.STAY)))
    assert standing_request(asked, AGENT) == "stay"
    assert say(asked, Selection("right", Flag.STAY, Flag.STAY)) is None
    assert say(asked, Selection("right", Flag.LEFT, Flag.LEFT)) == suggest(Flag.LEFT)  # a new request replaces it
    answered = chat((AGENT, suggest(Flag.STAY)), (PARTNER, "why?"))
    assert standing_request(answered, AGENT) is None
    assert say(answered, Selection("right", Flag.STAY, Flag.STAY)) == suggest(Flag.STAY)


def test_a_request_the_partner_is_carrying_out_is_not_repeated():
    assert say(chat(), Selection("right", Flag.RIGHT, Flag.RIGHT), followed=True) is None
    assert say(chat(), Selection("right", Flag.RIGHT, Flag.RIGHT), followed=False) == suggest(Flag.RIGHT)


def test_the_last_line_is_never_sent_again_without_a_partner_line_between():
    data = chat((PARTNER, "go right"), (AGENT, "OK, moving right."))
    assert say(data, Selection("right", Flag.NONE, None), Flag.RIGHT) is None
    again = chat((AGENT, "OK, moving right."), (PARTNER, "go right"))
    assert say(again, Selection("right", Flag.NONE, None), Flag.RIGHT) == "OK, moving right."


def test_a_partner_line_that_crossed_the_agents_own_line_does_not_get_the_same_line_again():
    # The partner typed "Go down" while the agent's refusal was being posted, so the refusal came after it: the
    # agent has already answered, and saying it again would answer nothing new (refusals are no exception).
    data = {
        "chat": [{"seat": PARTNER, "text": "Go down", "turn": 4}, {"seat": AGENT, "text": cannot("down"), "turn": 4}],
        "history": [{"seat": AGENT, "turn": 4}, {"seat": PARTNER, "turn": 5}],
    }
    assert say(data, Selection("up", Flag.REJECT, None, "down"), Flag.DOWN) is None
    data["chat"].append({"seat": PARTNER, "text": "Please move down", "turn": 5})
    assert say(data, Selection("up", Flag.REJECT, None, "down"), Flag.DOWN) == cannot("down")


def test_with_the_simulated_partner_the_agent_never_repeats_itself_and_talks_at_most_2_5_times_as_much():
    # Over the five rounds, as a study plays them: a round where the agent guides a quiet partner along a
    # winding route can go above 2.5 on its own (every turn of the route is a new request).
    results = [
        play_round(GnomesCommAgent(budget=200), SimulatedPartner(), round_number, seed)
        for round_number in (1, 2, 3, 4, 5)
        for seed in range(3)
    ]
    assert sum(r.repeats for r in results) == 0
    agent = sum(r.messages["agent"] for r in results)
    partner = sum(r.messages["partner"] for r in results)
    assert partner and agent / partner <= 2.5, (agent, partner)

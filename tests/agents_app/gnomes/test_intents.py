"""The rule-based intent parser (agents_app.agents.gnomes.intents), combine(), and the labelled intent set."""

from __future__ import annotations

from collections import Counter

import pytest

from agents_app.agents.gnomes.flags import Flag
from agents_app.agents.gnomes.intents import IntentParser, RuleBasedParser, combine
from tests.agents_app.gnomes.intent_set_support import INTENT_SET, load_intent_set


@pytest.fixture(scope="module")
def parser() -> RuleBasedParser:
    return RuleBasedParser()


def test_rule_based_parser_satisfies_the_interface(parser):
    def use(p: IntentParser) -> Flag:
        return p.parse("go up")

    assert use(parser) is Flag.UP


@pytest.mark.parametrize(
    ("message", "flag"),
    [
        # Plain, polite, terse and shouted requests.
        ("move right", Flag.RIGHT),
        ("Could you please go down one square?", Flag.DOWN),
        ("LEFT!!!", Flag.LEFT),
        ("up", Flag.UP),
        # A request phrased as a question is a request, not an inquiry.
        ("Can you move right?", Flag.RIGHT),
        ("should we go up?", Flag.UP),
        ("why don't you try left", Flag.LEFT),
        ("how about down?", Flag.DOWN),
        # Staying put.
        ("wait", Flag.STAY),
        ("stay there", Flag.STAY),
        ("don't move", Flag.STAY),
        ("do not move this turn", Flag.STAY),
        # Multi-step plans give their first step.
        ("go down twice then left", Flag.DOWN),
        ("right right up", Flag.RIGHT),
        ("3 up and then 2 left", Flag.UP),
        # The treasure's direction is where to go.
        ("the treasure is to the right", Flag.RIGHT),
        ("treasure is at the bottom", Flag.DOWN),
        # Negation.
        ("don't go left, go up", Flag.UP),
        ("not down, left", Flag.LEFT),
        ("dont move up move down", Flag.DOWN),
        ("not right", Flag.NONE),
        ("don't go left", Flag.NONE),
        ("I can't go right", Flag.REJECT),
        ("can't go up, try left", Flag.LEFT),
        # Typos, arrows, abbreviations, compass words.
        ("rihgt", Flag.RIGHT),
        ("dwon", Flag.DOWN),
        ("lft", Flag.LEFT),
        ("upp", Flag.UP),
        ("go rigth", Flag.RIGHT),
        ("->", Flag.RIGHT),
        ("<--", Flag.LEFT),
        ("⬆️", Flag.UP),
        ("↓", Flag.DOWN),
        ("R", Flag.RIGHT),
        ("go u", Flag.UP),
        ("head west", Flag.LEFT),
        # Words near a direction that are real words, and idioms, stay what they are.
        ("let me think", Flag.NONE),
        ("you might be right lol", Flag.NONE),
        ("can u go down", Flag.DOWN),
        ("hurry up", Flag.NONE),
        ("we have two moves left", Flag.NONE),
        ("calm down haha", Flag.NONE),
        ("what's up", Flag.NONE),
        # Acceptance, and acceptance followed by a new instruction.
        ("ok", Flag.ACCEPT),
        ("sure, will do", Flag.ACCEPT),
        ("yep", Flag.ACCEPT),
        ("on it", Flag.ACCEPT),
        ("no problem", Flag.ACCEPT),
        ("👍", Flag.ACCEPT),
        ("ok, now go left", Flag.LEFT),
        ("ok moving right", Flag.ACCEPT),
        # Rejection.
        ("no I can't", Flag.REJECT),
        ("there's a wall", Flag.REJECT),
        ("blocked on my side", Flag.REJECT),
        ("nope", Flag.REJECT),
        ("there's a wall on my left", Flag.REJECT),
        ("wall on my right, go down instead", Flag.DOWN),
        # Questions about the game state.
        ("where is the treasure?", Flag.INQUIRY),
        ("can you see the treasure?", Flag.INQUIRY),
        ("which way should I go?", Flag.INQUIRY),
        ("what walls do you have?", Flag.INQUIRY),
        ("is there a wall above you?", Flag.INQUIRY),
        ("is the treasure to the left?", Flag.INQUIRY),
        ("up or down?", Flag.INQUIRY),
        ("wait, where are we going?", Flag.INQUIRY),
        # Nothing to act on.
        ("lol", Flag.NONE),
        ("good job", Flag.NONE),
        ("hi!", Flag.NONE),
        ("this is hard", Flag.NONE),
        ("how are you?", Flag.NONE),
        ("", Flag.NONE),
        ("   \n\t", Flag.NONE),
        ("?!.", Flag.NONE),
    ],
)
def test_targeted_messages(parser, message, flag):
    assert parser.parse(message) is flag


def test_parser_is_deterministic(parser):
    assert {parser.parse("go dwon then lft") for _ in range(5)} == {Flag.DOWN}


def test_intent_set_is_large_varied_and_documented():
    header, examples = load_intent_set()
    comment = header["_comment"]
    assert "CC0" in comment and "written" in comment.lower()
    assert "first step" in comment.lower() and "not right" in comment  # the labelling rules are stated
    assert len(examples) >= 170
    counts = Counter(flag for _, flag in examples)
    for flag in (Flag.RIGHT, Flag.UP, Flag.LEFT, Flag.DOWN, Flag.ACCEPT, Flag.REJECT, Flag.INQUIRY, Flag.NONE):
        assert counts[flag] >= 15, flag
    assert counts[Flag.STAY] >= 8
    texts = [text for text, _ in examples]
    assert len(set(texts)) == len(texts), "duplicate messages"


def test_rule_based_accuracy_on_the_intent_set(parser):
    _, examples = load_intent_set()
    correct = sum(parser.parse(text) is flag for text, flag in examples)
    assert correct / len(examples) >= 0.90


def test_rule_based_accuracy_on_the_independent_held_out_set(parser):
    """Written from the labelling rules alone, never used for tuning: the honest accuracy figure."""
    _, examples = load_intent_set(INTENT_SET.with_name("intents_heldout.jsonl"))
    assert len(examples) == 80
    correct = sum(parser.parse(text) is flag for text, flag in examples)
    assert correct / len(examples) >= 0.90


# --- combine -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "combined"),
    [
        ([], Flag.NONE),
        ([Flag.NONE, Flag.NONE], Flag.NONE),
        ([Flag.LEFT], Flag.LEFT),
        ([Flag.LEFT, Flag.UP], Flag.UP),  # a later message corrects an earlier one
        ([Flag.RIGHT, Flag.NONE], Flag.RIGHT),  # chit-chat afterwards does not erase the request
        ([Flag.NONE, Flag.REJECT, Flag.NONE], Flag.REJECT),
        ([Flag.INQUIRY, Flag.ACCEPT], Flag.ACCEPT),
    ],
)
def test_combine_keeps_the_latest_intent(flags, combined):
    assert combine(flags) is combined


def test_combine_over_parsed_messages(parser):
    messages = ["go left", "no wait", "go up", "lol sorry"]
    assert combine([parser.parse(m) for m in messages]) is Flag.UP


def test_the_agents_own_suggestions_parse_as_the_move_they_ask_for(parser):
    """The simulated partner and any reader of the agent's messages go through this parser."""
    from agents_app.agents.gnomes.messages import suggest

    for flag in (Flag.STAY, Flag.RIGHT, Flag.UP, Flag.LEFT, Flag.DOWN):
        assert parser.parse(suggest(flag)) is flag

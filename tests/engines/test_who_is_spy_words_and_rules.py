"""Who is Spy's word pairs, rules and secrets: the pairs file holds at least 100 distinct pairs of single common
words that neither the random players' texts nor the rules text contain, loaded once and without Django; every
action names existing rule topics; and the secrets are the word sentences, gone at the end."""

from __future__ import annotations

import json
import subprocess
import sys

from gameplay.engines.who_is_spy.rules import RULES
from gameplay.engines.who_is_spy.words import PAIRS_PATH, word_pairs

from .conformance import DEFAULT_TEXTS
from .who_is_spy_support import REPO, describe_round, new_state, spy_and_villagers, vote


def test_the_pairs_file_has_at_least_100_distinct_pairs_of_single_common_words():
    raw = json.loads(PAIRS_PATH.read_text(encoding="utf-8"))
    assert PAIRS_PATH == REPO / "fixtures" / "who_is_spy_pairs.json"
    assert len(raw) >= 100
    words = [w for pair in raw for w in pair]
    assert all(len(pair) == 2 for pair in raw)
    assert len(set(words)) == len(words), "no word appears twice"
    assert all(w.isalpha() and w.islower() and len(w) >= 4 for w in words)
    assert not {"hello", "yes", "ok", "word"} & set(words)
    assert all(a not in b and b not in a for a, b in raw)
    stock = [*DEFAULT_TEXTS, "I agree.", "Let's see.", "Pass.", "Sounds good.", "Not sure yet."]
    assert not [w for w in words for text in stock if w in text.lower()], "random players' texts must stay legal"
    rules_text = " ".join([RULES.summary, *RULES.topics, *RULES.topics.values()]).lower()
    assert not [w for w in words if w in rules_text], "the rules text primes no word of the list"
    assert word_pairs() is word_pairs(), "loaded once"


def test_the_engine_loads_its_pairs_without_django():
    code = ("import sys; from gameplay.engines.who_is_spy import SpyGame; "
            "SpyGame({}, 4).new_initial_state(1); assert 'django' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


def test_every_action_names_existing_rule_topics():
    state = new_state(spy_guess=True)
    seat = state.current_seats()[0]
    for action in ("describe", "spy_guess", "vote:1"):
        assert state.rule_topics(seat, action)
        assert all(t in RULES.topics for t in state.rule_topics(seat, action))
    assert set(RULES.topics) == {"Words and camps", "Describing", "Voting and ties", "Elimination and winning",
                                 "Inferring your own role"}


def test_secrets_are_the_word_sentences_and_vanish_at_the_end():
    state = new_state(seed=8)
    secrets = state.secrets()
    assert secrets[state.spies[0]] == [f"Your secret word is {state.spy_word}."]
    for seat in range(4):
        assert secrets[seat][0] in state.observation(seat).text
    (spy,), villagers = spy_and_villagers(state)
    describe_round(state)
    vote(state, {v: spy for v in villagers} | {spy: villagers[0]})
    assert state.secrets() == {}
    assert "the spy was Player" in state.observation(None).text

"""spy_probes scores a 1-word or 2-word answer as the engine compares words (issue 40): letter case, punctuation,
hyphens and spaces aside, so an answer "spider man" names SpyGame's "Spider-Man"."""

from __future__ import annotations

from agents_app.management.commands.spy_probes import same_word


def test_an_answer_names_a_hyphenated_or_spaced_word_however_it_is_spelt():
    assert same_word("spider man", "Spider-Man") and same_word("ICE-CREAM", "ice cream")
    assert same_word("High heels!", "High Heels") and same_word("apples", "apple")
    assert not same_word("spider", "Spider-Man") and not same_word("", "Batman") and not same_word(None, "x")

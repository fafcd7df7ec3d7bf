"""Who is Spy through the platform (templates/games/who_is_spy/board.html): each seat's page shows its own secret
word and never another's, the speaking order with the speaker marked, the public descriptions by round, the describe
form for the speaker only, the ballot in the order the engine drew for that voter, "You have voted", each count's
outcome, and at the end both words, the spy and the winners."""

from __future__ import annotations

import re

import pytest

from gameplay.reads.selectors import state_of
from gameplay.writes import services
from gameplay.writes.services import SeatController

HUMAN = SeatController("human")
OPTIONS = {"pair_index": 29}  # cucumber / zucchini: words found in no other text of the page


def act(match, seat, action_id, text=None):
    return services.submit_action(match.pk, seat, action_id, expected_version=match.version, text=text)


def pages(client, match):
    return [client.get(f"/play/{s.token}/").content.decode() for s in match.seats.order_by("index")]


def has_word(html: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", html, re.IGNORECASE) is not None


@pytest.fixture
def match():
    return services.create_match("who_is_spy", [HUMAN] * 4, seed=3, options=OPTIONS, host_seat=None)


def describe_round(match, texts=("green and long", "grows in a garden", "you slice it", "summer food")):
    state = state_of(match)
    for i, seat in enumerate(list(state.round["order"])):
        match = act(match, seat, "describe", f"{texts[i]} {state.round['n']}")
    return match


@pytest.mark.django_db
def test_each_page_shows_its_own_word_only_and_the_speaker_has_the_form(client, match):
    state = state_of(match)
    words = state.words
    html = pages(client, match)
    speaker = state.round["order"][0]
    for seat, page in enumerate(html):
        assert f'<p class="spy-word" id="spy-word">{words[seat]}</p>' in page
        for other in set(words) - {words[seat]}:
            assert not has_word(page, other), f"seat {seat} sees {other}"
        assert ('id="spy-describe-text"' in page) == (seat == speaker)
        assert "spy-ballot" not in page
        assert 'aria-current="step"' in page  # the speaker is marked in the order
    public = client.get(f"/matches/{match.pk}/").content.decode()
    assert not any(has_word(public, w) for w in set(words))
    with pytest.raises(services.ActionRejected, match='your own secret word'):
        act(match, speaker, "describe", f"like a {words[speaker].upper()} indeed")
    match = act(match, speaker, "describe", "green and long")
    html = pages(client, match)
    assert '<span class="who">You</span> <span class="said">green and long</span>' in html[speaker]
    other = next(s for s in range(4) if s != speaker)
    assert f'<span class="who">Player {speaker + 1}</span> <span class="said">green and long</span>' in html[other]


@pytest.mark.django_db
def test_the_ballot_keeps_the_engines_order_and_the_vote_stays_secret(client, match):
    match = describe_round(match)
    state = state_of(match)
    html = pages(client, match)
    for seat, page in enumerate(html):
        ids = re.findall(r'name="action_id" value="(vote:\d)"', page)
        assert ids == [f"vote:{c}" for c in state.round["ballots"][seat]]
        assert "vote:none" not in page  # no timer: no abstaining
    match = act(match, 0, f"vote:{state.round['ballots'][0][0]}")
    html = pages(client, match)
    assert "You have voted." in html[0] and "spy-ballot" not in html[0]
    target = state.round["ballots"][0][0]
    assert f"In round 1 you voted for Player {target + 1}." in html[0]
    for page in html[1:]:
        assert "you voted for" not in page and "Player 1 voted" not in page
        assert '<span class="tag done">voted</span>' in page


@pytest.mark.django_db
def test_a_count_is_announced_and_the_end_reveals_both_words(client, match):
    state = state_of(match)
    spy = state.spies[0]
    villager = next(s for s in range(4) if s != spy)
    # Round 1: everyone votes out a villager (the spy votes for it too), so 3 remain.
    match = describe_round(match)
    for seat in range(4):
        target = villager if seat != villager else spy
        match = act(match, seat, f"vote:{target}")
    html = pages(client, match)
    assert f"Player {villager + 1} received the most votes and is out." in html[spy]
    assert 'id="spy-last-outcome"' in html[spy]
    assert "Out: voted out in round 1" in html[spy]
    # Round 2: the spy goes.
    match = describe_round(match, ("crunchy thing", "often in salads", "a vegetable", "from a plant"))
    state = state_of(match)
    out_page = pages(client, match)[villager]
    assert "You are out; the others vote." in out_page and "spy-ballot" not in out_page
    assert f'<p class="spy-word" id="spy-word">{state.villager_word}</p>' in out_page  # still only its own word
    assert not has_word(out_page, state.spy_word)
    for seat in state.round["voters"]:
        target = spy if seat != spy else next(c for c in state.round["ballots"][seat])
        match = act(match, seat, f"vote:{target}")
    assert state_of(match).is_terminal()
    html = pages(client, match)
    for page in html:
        assert "Game over: the villagers win" in page
        assert state.villager_word in page and state.spy_word in page
        assert f"The spy was <strong>Player {spy + 1}</strong>" in page
        assert 'id="spy-word"' not in page
    # The replay draws the same table without controls: mid-game (public view) no word, at the end both.
    middle = client.get(f"/matches/{match.pk}/replay/?step=3").content.decode()
    assert 'class="spy"' in middle and not any(has_word(middle, w) for w in state.words)
    assert "spy-describe" not in middle and "spy-ballot" not in middle
    end = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert "Game over: the villagers win" in end


@pytest.mark.django_db
def test_a_tie_leads_to_a_run_off_that_the_tied_players_watch(client, match):
    match = describe_round(match)
    # 0 and 1 vote for each other, 2 votes for 0, 3 for 1: a 2-2 tie between Player 1 and Player 2.
    for seat, target in ((0, 1), (1, 0), (2, 0), (3, 1)):
        match = act(match, seat, f"vote:{target}")
    html = pages(client, match)
    for page in html:
        assert "Player 1 and Player 2 tied for the most votes: the next round is a run-off between them." in page
        assert 'data-runoff="yes"' in page and "Run-off: describing" in page
        assert "Round 2 (run-off between Player 1 and Player 2)" in page
    match = describe_round(match, ("one more clue", "and another one"))
    html = pages(client, match)
    assert "You are tied: the others vote between Player 1 and Player 2." in html[0]
    assert "spy-ballot" not in html[0] and "spy-ballot" not in html[1]
    for seat in (2, 3):
        assert re.findall(r'name="action_id" value="(vote:\d)"', html[seat]) == [
            f"vote:{c}" for c in state_of(match).round["ballots"][seat]]
        assert "Run-off: voting" in html[seat]


@pytest.mark.django_db
def test_the_timer_offers_pass_and_abstain_and_the_variant_offers_a_guess(client):
    options = {**OPTIONS, "describe_seconds": 60, "vote_seconds": 60, "spy_guess": True, "show_votes": True}
    match = services.create_match("who_is_spy", [HUMAN] * 4, seed=3, options=options, host_seat=None)
    speaker = state_of(match).round["order"][0]
    html = pages(client, match)[speaker]
    assert 'data-action-id="skip_describe"' in html and "Pass (give no description)" in html
    assert 'name="action_id" value="spy_guess"' in html
    match = act(match, speaker, "skip_describe")
    html = pages(client, match)
    assert f'<span class="who">Player {speaker + 1}</span> gave no description.' in html[(speaker + 1) % 4]
    state = state_of(match)
    for seat in list(state.round["order"])[1:]:
        match = act(match, seat, "describe", f"a clue from seat {seat}")
    html = pages(client, match)
    assert all('data-action-id="vote:none"' in page and "Abstain (vote for nobody)" in page for page in html)
    assert all("Everyone sees each vote." in page for page in html)
    match = act(match, 0, "vote:none")
    html = pages(client, match)
    assert "In round 1 you abstained." in html[0] and "In round 1 Player 1 abstained." in html[1]

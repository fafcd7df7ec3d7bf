"""The pure rating library: reproduction of the seeds' published ratings, agreement with choix,
tie rules, weighted wins, disconnection reports, per-game labels, determinism."""

from pathlib import Path

import numpy as np
import pytest

from rating_app.ratings import MatchResult, RatingConfig, RatingInputError, fit_batch, load_seed_file, rate
from rating_app.ratings.bootstrap import resampled_wins, scope_inputs
from rating_app.ratings.choix_reference import fit_one, fit_pairs
from rating_app.ratings.comparisons import comparison_matrix

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "gamebench_matches.json"

# Seeds/001, Table 2, "Overall" column.
PAPER_OVERALL = {
    "random": -0.50,
    "human": 1.76,
    "gpt-3": -0.48,
    "gpt-3-cot": 0.06,
    "gpt-4": -0.89,
    "gpt-4-cot": 0.16,
    "gpt-4-rap": -0.10,
}


@pytest.fixture(scope="module")
def gamebench():
    return load_seed_file(FIXTURE)


@pytest.fixture(scope="module")
def gamebench_report(gamebench):
    return rate(gamebench, RatingConfig(bootstrap=10_000, seed=0, ties="skip"))


def test_overall_ratings_reproduce_the_published_table(gamebench_report):
    overall = gamebench_report.scopes["overall"]
    assert sorted(overall.agents) == sorted(PAPER_OVERALL)
    for agent, published in PAPER_OVERALL.items():
        assert overall.rating_of(agent).rating == pytest.approx(published, abs=0.1), agent


def test_report_shape_and_invariants(gamebench_report):
    assert gamebench_report.n_matches == 277
    assert set(gamebench_report.scopes) == {"overall", *gamebench_report.games}
    for scope in gamebench_report.scopes.values():
        ratings = [r.rating for r in scope.ratings]
        assert ratings == sorted(ratings, reverse=True)  # best first
        assert sum(ratings) == pytest.approx(0.0, abs=1e-9)  # centred log-strengths
        for r in scope.ratings:
            assert r.low <= r.rating <= r.high
            assert r.rank_low <= r.rank <= r.rank_high
            assert 0.0 <= r.average_score <= 1.0
        p = np.array(scope.win_probability)
        assert np.allclose(p + p.T, 1.0) and np.all((p > 0) & (p < 1))
        counts = np.array(scope.match_counts)
        assert (counts == counts.T).all()


def test_vectorised_fit_agrees_with_choix_on_the_same_resamples(gamebench):
    config = RatingConfig(bootstrap=300, seed=11)
    agents, rows, weights = scope_inputs(gamebench, "skip", overall=True)
    wins = np.concatenate(list(resampled_wins("overall", rows, weights, len(agents), config)))
    assert wins.shape == (300, 7, 7)
    vectorised = fit_batch(wins)
    reference = np.array([fit_one(w) for w in wins])
    assert np.abs(vectorised - reference).max() < 1e-3
    assert np.abs(vectorised - reference).max() < 1e-9  # in fact the same iteration, to rounding


def test_vectorised_fit_agrees_with_choix_public_api_on_whole_pairs():
    rng = np.random.default_rng(4)
    k = 5
    batch, references = [], []
    for _ in range(10):
        pairs = [(int(a), int(b)) for a, b in rng.integers(0, k, size=(60, 2)) if a != b]
        wins = np.zeros((k, k))
        for w, lose in pairs:
            wins[w, lose] += 1
        batch.append(wins)
        references.append(fit_pairs(k, pairs))
    assert np.abs(fit_batch(np.array(batch)) - np.array(references)).max() < 1e-9


def test_fractional_scores_are_weighted_wins():
    matches = [MatchResult("g", ("a", "b"), (0.7, 0.3))]
    rows = comparison_matrix(matches, ["a", "b"], "skip").reshape(2, 2)
    assert rows[0, 1] == pytest.approx(0.7) and rows[1, 0] == pytest.approx(0.3)


def test_tie_rules():
    tie = [MatchResult("g", ("a", "b"), (0.5, 0.5))]
    assert comparison_matrix(tie, ["a", "b"], "skip").sum() == 0
    assert comparison_matrix(tie, ["a", "b"], "half").reshape(2, 2).tolist() == [[0, 0.5], [0.5, 0]]
    with pytest.raises(ValueError):
        comparison_matrix(tie, ["a", "b"], "ignore")


def test_team_matches_split_into_pairs_of_different_agents():
    # Four seats in two teams: teammates tie with each other; each cross-team pair is a decisive comparison.
    match = MatchResult("codenames", ("a", "b", "c", "d"), (0.5, 0.5, 0.0, 0.0))
    rows = comparison_matrix([match], ["a", "b", "c", "d"], "skip").reshape(4, 4)
    share = 1 / 6  # six seat pairs, so the whole match weighs one comparison
    assert rows[0, 2] == pytest.approx(share) and rows[2, 0] == 0
    assert rows[0, 1] == 0 and rows[1, 0] == 0  # teammates: a tie, skipped
    assert rows.sum() == pytest.approx(4 * share)


def test_ties_decide_whether_hive_is_connected(gamebench):
    hive = [m for m in gamebench if m.game == "hive"]
    skipped = rate(hive, RatingConfig(bootstrap=50, ties="skip")).scopes["hive"]
    assert skipped.components and skipped.excluded  # 18 of 21 matches are ties: most agents unlinked
    assert {e["agent"] for e in skipped.excluded}.isdisjoint(skipped.agents)
    assert all("no counted comparison" in e["reason"] for e in skipped.excluded)
    halved = rate(hive, RatingConfig(bootstrap=50, ties="half")).scopes["hive"]
    assert not halved.excluded and len(halved.agents) == len({a for m in hive for a in m.agents})


def test_disconnected_groups_are_reported_not_rated_together():
    matches = [MatchResult("g", ("a", "b"), (1.0, 0.0))] * 3 + [MatchResult("g", ("c", "d"), (1.0, 0.0))] * 2
    scope = rate(matches, RatingConfig(bootstrap=20)).scopes["g"]
    assert scope.components == [["a", "b"], ["c", "d"]]
    assert set(scope.agents) == {"a", "b"} and {e["agent"] for e in scope.excluded} == {"c", "d"}


def test_perfect_records_are_flagged():
    matches = [MatchResult("g", ("a", "b"), (1.0, 0.0)), MatchResult("g", ("b", "c"), (1.0, 0.0))]
    scope = rate(matches, RatingConfig(bootstrap=20)).scopes["g"]
    assert any("never lost" in n for n in scope.rating_of("a").notes)
    assert any("never won" in n for n in scope.rating_of("c").notes)
    assert scope.rating_of("b").notes == []


def test_per_game_columns_come_from_their_own_game(gamebench, gamebench_report):
    """A dataset of one game only: its numbers land under that game and nowhere else, and equal the
    full run's numbers for that game (each game's scope sees only its own matches)."""
    config = gamebench_report.config
    for game in gamebench_report.games:
        only = [m for m in gamebench if m.game == game]
        report = rate(only, config)
        assert report.games == [game] and set(report.scopes) == {"overall", game}
        for agent, by_game in report.average_scores.items():
            assert set(by_game) == {game, "overall"}
            assert by_game[game] == pytest.approx(gamebench_report.average_scores[agent][game])
        full, alone = gamebench_report.scopes[game], report.scopes[game]
        assert full.agents == alone.agents
        assert [r.rating for r in full.ratings] == pytest.approx([r.rating for r in alone.ratings])
        assert full.match_counts == alone.match_counts


def test_average_scores_match_the_data(gamebench, gamebench_report):
    santorini = [m for m in gamebench if m.game == "santorini"]
    human = [s for m in santorini for a, s in zip(m.agents, m.scores, strict=True) if a == "human"]
    assert gamebench_report.average_scores["human"]["santorini"] == pytest.approx(sum(human) / len(human))


def test_same_seed_same_ratings_other_seed_other_resamples(gamebench):
    a = rate(gamebench, RatingConfig(bootstrap=200, seed=1)).scopes["overall"]
    b = rate(gamebench, RatingConfig(bootstrap=200, seed=1)).scopes["overall"]
    c = rate(gamebench, RatingConfig(bootstrap=200, seed=2)).scopes["overall"]
    assert [r.rating for r in a.ratings] == [r.rating for r in b.ratings]
    assert [r.rating for r in a.ratings] != [r.rating for r in c.ratings]


@pytest.mark.parametrize(
    "records, message",
    [
        ([{"game": "g", "a": 1.5, "b": 0}], "outside"),
        ([{"game": "g", "a": 1}], "fewer than two"),
        ([{"a": 1, "b": 0}], "no game"),
        ([{"game": "g", "a": "x", "b": 0}], "non-numeric"),
    ],
)
def test_bad_records_are_rejected(tmp_path, records, message):
    import json

    path = tmp_path / "m.json"
    path.write_text(json.dumps(records))
    with pytest.raises(RatingInputError, match=message):
        load_seed_file(path)


def test_no_matches_is_an_error():
    with pytest.raises(RatingInputError):
        rate([])

"""Every game declares its reasoning categories from GameBench's six, and GameBench's nine carry the paper's own
classification (seed 001, Table 1: "Number of games per reasoning category"), which benchmark reports group by."""

from collections import defaultdict

from gameplay.engines.registry import GAMES
from gameplay.engines.spec import REASONING_CATEGORIES

# Seed 001, Table 1, as printed: category -> the games listed in its row (abbreviations as in the paper).
TABLE_1 = {
    "abstract_strategy": {"ALS", "ARC", "CN", "HV", "SN", "SB"},
    "non_deterministic": {"ARC", "TRB", "SB"},
    "hidden_information": {"ARC", "AYT", "TRB"},
    "language_communication": {"AYT", "CN", "PT", "TRB"},
    "social_deduction": {"AYT", "TRB"},
    "cooperation": {"AYT", "CN", "SB", "TRB"},
}
ABBREVIATIONS = {
    "air_land_sea": "ALS", "arctic_scavengers": "ARC", "are_you_the_traitor": "AYT", "codenames": "CN",
    "hive": "HV", "pit": "PT", "santorini": "SN", "two_rooms_and_a_boom": "TRB", "sea_battle": "SB",
}


def test_every_declared_category_is_one_of_gamebenchs_six():
    for game_id, cls in GAMES.items():
        categories = cls.spec.reasoning_categories
        assert isinstance(categories, tuple), game_id
        assert set(categories) <= set(REASONING_CATEGORIES), (game_id, categories)
        assert len(set(categories)) == len(categories), game_id


def test_gamebenchs_nine_games_carry_table_1():
    declared = defaultdict(set)
    for game_id, abbreviation in ABBREVIATIONS.items():
        for category in GAMES[game_id].spec.reasoning_categories:
            declared[category].add(abbreviation)
    assert dict(declared) == TABLE_1

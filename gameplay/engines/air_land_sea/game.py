"""Air, Land & Sea as a pure engine: the game's spec, options and limits (the rules live in state.py)."""

from __future__ import annotations

from ..api import Game, GameSpec, MeasureSpec, OptionSpec
from .rules import RULES
from .state import AirLandSeaState


class AirLandSeaGame(Game):
    spec = GameSpec(
        id="air_land_sea",
        name="Air, Land & Sea",
        description=(
            "Two-player card battle over three theaters. Play cards face up into their theater (their ability "
            "triggers) or face down anywhere; control two theaters or make your opponent withdraw. First to 12 VP."
        ),
        min_seats=2,
        max_seats=2,
        reasoning_categories=("abstract_strategy",),
        perfect_information=False,
        has_chance=True,
        information_sampling=True,
        has_evaluation=True,
        seat_names=("Blue", "Red"),
        measures=(
            MeasureSpec("vp", "Victory points this seat scored in the game."),
            MeasureSpec("battles", "Battles finished in the game (both seats)."),
            MeasureSpec("battles_won", "Battles this seat won."),
            MeasureSpec("withdrawals", "Battles this seat gave up by withdrawing."),
        ),
        options=(
            OptionSpec("target_vp", 12, "Victory points that win the game (18: the rulebook's longer game).",
                       type=int, choices=(12, 18), label="Victory points to win"),
            OptionSpec("action_cap", 1500, "Platform rule, not in the rulebook: the game stops after this many "
                       "actions (more VP wins, equal VP is a draw), so every game is bounded.", type=int,
                       bounds=(1, 100_000), short_value=20, label="Action cap"),
            OptionSpec("alt_disrupt_opponent_first", False, "Alternate printing: Disrupt's opponent flips first, "
                       "then the Disrupt player (the 2020 rulebook: the Disrupt player first).", type=bool,
                       label="Alternate printing: Disrupt's opponent flips first"),
            OptionSpec("gamebench_disrupt_chooser", False, "GameBench: the Disrupt player also chooses the card "
                       "the opponent flips (official: the opponent chooses).", type=bool,
                       label="GameBench: Disrupt chooser"),
            OptionSpec("gamebench_reinforce_unchecked", False, "GameBench: the card Reinforce places is never "
                       "destroyed by Containment or Blockade (official: it is a play like any other).", type=bool,
                       label="GameBench: Reinforce's card cannot be destroyed"),
            OptionSpec("gamebench_destroyed_vanish", False, "GameBench: destroyed cards leave the battle instead "
                       "of going to the bottom of the deck (where Reinforce can draw them).", type=bool,
                       label="GameBench: destroyed cards leave the battle"),
            OptionSpec("gamebench_rotation", False, "GameBench: between battles the leftmost theater moves to the "
                       "right end (official: the rightmost moves to the far left).", type=bool,
                       label="GameBench: theater rotation"),
            OptionSpec("gamebench_vp_share_scores", False, "GameBench: each seat's match score is its share of the "
                       "VP scored (official: the winner takes the game).", type=bool,
                       label="GameBench: scores as shares of the VP"),
        ),
    )
    state_class = AirLandSeaState
    rules = RULES

    def max_actions(self) -> int:
        return self.options["action_cap"]

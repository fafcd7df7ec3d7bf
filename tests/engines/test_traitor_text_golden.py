"""Are You the Traitor?: what language models read stays byte-identical. Seeded random playouts digest, at every
step, the observation text of every seat and of the public, the observation data under the keys the engine had
before its facts were added, the legal and text actions with their labels, and the per-viewer labels of the move
taken. The digests were recorded from the engine as it was before the board's facts were added (the starting point
of the traitor-board branch); any change of wording, of those data or of labels changes them.

To re-record after an intended change of wording: ``python -m tests.engines.test_traitor_text_golden``.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from gameplay.engines.are_you_the_traitor import TraitorGame

# The observation data keys as they were before facts for the board were added; their values must not change.
ORIGINAL_KEYS = (
    "seat", "you", "phase", "round", "max_rounds", "target_points", "tick", "ticks_before_handoff", "talk_order",
    "to_act", "my_turn", "wizards", "card_counts", "rounds_won", "talk", "last_round", "history", "treasure",
    "treasure_text", "points", "rings", "role", "known", "final_points", "final_treasure", "winners",
)
SAYINGS = ("I am a Guard.", "Player 2: \u201cI am honest\u201d, trust me", "passed.", "Stop! Round 1: me.", "x",
           "Characters that round: none", "\u00e9t\u00e9 \u2603")
CASES = {  # id -> (seats, options, seeds)
    "4": (4, {"max_rounds": 6}, range(6)),
    "5": (5, {"max_rounds": 5}, range(4)),
    "6": (6, {"max_rounds": 4}, range(4)),
    "7": (7, {"max_rounds": 4, "ticks_before_handoff": 2}, range(3)),
    "8": (8, {"max_rounds": 4, "ticks_before_handoff": 1}, range(3)),
    "9": (9, {"max_rounds": 3, "ticks_before_handoff": 1}, range(3)),
    "10": (10, {"max_rounds": 3, "ticks_before_handoff": 1}, range(3)),
    "5-gamebench": (5, {"gamebench_fixed_roles": True, "gamebench_team_win": True, "max_rounds": 6}, range(3)),
    "6-fixed": (6, {"gamebench_fixed_roles": True, "max_rounds": 4}, range(2)),
    "4-no-talk-long": (4, {"ticks_before_handoff": 0, "target_points": 60, "max_rounds": 60}, range(3)),
    "8-no-talk": (8, {"ticks_before_handoff": 0, "target_points": 5}, range(3)),
}
GOLDEN = {  # recorded before the board's facts were added; re-recorded when the Magic Ring step asked every seat at
    # once (only the ring step's "Waiting for" / turn lines and to_act changed; actions and labels stayed the same)
    "4": "d4478e6b28510e1cd9724542707e58407dc69d399d574a3cca51ac8ab3abfb12",
    "5": "2a0fa80e45d6c4885fc1ce41fed3f01a3661b5362c57f5bcab7d5b4b309a1fb9",
    "6": "40af5e5b5e9d0eade585e5d779a8abec2a48b204a10d6ba13e653dce33c55b6d",
    "7": "2c012988666edb9d2f06720128890a7eeb10951183a690836f5bdf4d45575fc0",
    "8": "2edd22a6517cdb394e62c2b7beeb12a1eaf729b7f3ea285e3fb7a2eb1b287d33",
    "9": "0fe2ca64210327b5803b67b4cfd91f8078be1cdac49cd39c1cb181ce4f045f37",
    "10": "9a0a5e78c1cefffa1a180d25827734020beda7814275599eb52747018364ea63",
    "5-gamebench": "ddaab5d42498a199f2b1e96f5507ed0b45841b8aa02bd24cfabc1ca11710da7b",
    "6-fixed": "6c89c87e358d416cf01217028822c64bc0cecc93b1fbf56c67b8e1acc25a76de",
    "4-no-talk-long": "f1f86222485d86986d10ebf2bdcc62f43cb7a7d66c6db9021ca83f75baa543c4",
    "8-no-talk": "b2240d29ecd7220c31193e8f973c28ee2903853787881cbd0e92c746b9ccd974",
}


def _views(state, digest) -> None:
    for viewer in [*range(state.game.num_seats), None]:
        observation = state.observation(viewer)
        data = {key: observation.data[key] for key in ORIGINAL_KEYS if key in observation.data}
        digest.update(json.dumps([viewer, observation.text, data], sort_keys=True).encode())


def playout_digest(seats: int, options: dict, seed: int) -> str:
    game = TraitorGame(options, seats)
    state = game.new_initial_state(seed)
    rng = random.Random(seed * 7919 + seats)
    digest = hashlib.sha256()
    while True:
        _views(state, digest)
        if state.is_terminal():
            return digest.hexdigest()
        seat = state.current_seats()[0]
        legal = state.legal_actions(seat)
        texts = state.text_actions(seat)
        digest.update(json.dumps([[a.id, a.label] for a in legal]).encode())
        digest.update(json.dumps([[t.id, t.label, t.hint, t.max_length] for t in texts]).encode())
        if texts and rng.random() < 0.5:
            action_id, text = texts[0].id, rng.choice(SAYINGS)
        else:
            action_id, text = rng.choice(legal).id, None
        labels = state.action_labels(seat, action_id, text)
        digest.update(json.dumps([list(labels.by_seat), labels.public]).encode())
        state.apply_action(seat, action_id, text)


def case_digest(case: str) -> str:
    seats, options, seeds = CASES[case]
    return hashlib.sha256("".join(playout_digest(seats, options, s) for s in seeds).encode()).hexdigest()


@pytest.mark.parametrize("case", sorted(CASES))
def test_observation_text_data_and_labels_are_unchanged(case):
    assert case_digest(case) == GOLDEN[case]


if __name__ == "__main__":
    print(json.dumps({case: case_digest(case) for case in CASES}, indent=4))

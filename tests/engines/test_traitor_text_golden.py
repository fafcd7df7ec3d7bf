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
GOLDEN = {  # recorded from the engine before the board's facts were added
    "4": "974ad29d31a8029bb4af2dbd9d1f7738be8efe3f2ec14673904b5e7812050ded",
    "5": "a5c0d38dc35a540c5bec6e218cc77014f933f8bdb9457c0a57f76a912d804122",
    "6": "a0e8074d95223644d0bde57b0db33707fba720fc33e6aa6578ec0c57cbda1696",
    "7": "714f1da27dc3d5c8bb310302ef30d06c7ce0b6a1b96f58c766f51c1edf36ff93",
    "8": "11f37e72abb915466517222e6c3109d26c8a2e90464b16c2de904663c249f777",
    "9": "dbf745d86097685cd17b9702d9541b6b5f0a254ab3c21de82fabd25983125149",
    "10": "409f7ca81ccdccdd32b1b3ee47b8757d5a0f882886e2519dab9e09fa9861867c",
    "5-gamebench": "d345039f20f9e49e3c57b489a3000675a0f1ab9c0f8b378e06fd513ec7cfee7d",
    "6-fixed": "c6d9dc4ce56f3ee25100e541e8ad8409e4d2f31ef85fa66942d9940ddcbc81b9",
    "4-no-talk-long": "0989cc96e6c7f099629b4c660f371642d493ba5d4278a1d7229150c394aaa99a",
    "8-no-talk": "e3465142738dee742ae14039aedb5094698c291ac0bd006df4f52ebee48aca14",
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

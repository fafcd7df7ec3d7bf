"""The search hooks of the engine contract (``GameSpec.information_sampling``, ``GameSpec.has_evaluation``), a part of
``State`` kept here so that ``api.py`` stays readable: drawing a state from a seat's information set, the evaluation
of an unfinished state, and applying a search's own moves to a sample. ``api.State`` inherits them; engines override
``_draw_information_state`` and ``evaluation``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from .spec import ActionRecord, EngineError

if TYPE_CHECKING:
    from .api import State

# The id a sampled state's log keeps for an action its seat did not see (``State.sample_information_state``).
HIDDEN_ACTION = "?hidden"


class SearchHooks:
    """Mixed into ``State``: everything a search agent asks of a state beyond the core contract."""

    # The seat whose information set this state was sampled from (sample_information_state); None for a match's
    # own state. Not part of the JSON: a sample is a search's, never stored.
    sampled_for: int | None = None

    def sample_information_state(self, seat: int, rng: random.Random) -> State:
        """A whole state drawn from ``seat``'s information set with ``rng``: what ``seat`` has seen stays as it is
        (its observation, its legal actions, the length of the log), and everything hidden from it (other seats'
        cards, roles and pending orders, the order of the unseen deck, the match seed behind chance to come) is
        drawn anew with ``rng`` alone, consistently with what it has seen. Search agents play on such samples.

        The sample must depend only on what the seat has seen: two states that look the same to the seat give the
        same sample for the same generator (so a sample of a sample is a sample of the original). Records of the
        log the seat did not see are kept as ``HIDDEN_ACTION`` under their seat. A sample is a state for search,
        not a match: it round-trips through JSON but is not replayable from its seed, and it is marked
        (``sampled_for``, kept by its clones) so that the agents' boundary can tell it from a match's state.

        Engines override ``_draw_information_state``; this wrapper marks what it returns."""
        sample = self._draw_information_state(seat, rng)
        sample.sampled_for = seat
        return sample

    def _draw_information_state(self, seat: int, rng: random.Random) -> State:
        """The drawing behind ``sample_information_state``. Default, for a perfect-information game: the state
        itself under a seed drawn from ``rng``. A game with hidden information declares ``spec.information_sampling``
        and overrides this."""
        if not self.game.spec.perfect_information:
            raise EngineError(f"{self.game.spec.name} cannot sample a seat's information set")
        sample = self.clone()
        sample.seed = rng.getrandbits(62)
        sample.rng_draws = 0
        return sample

    def evaluation(self) -> list[float]:
        """Estimated scores of this (unfinished) state, each in [0, 1] and summing to 1, as ``scores`` are
        (``spec.has_evaluation``). Read by searches on sampled states. Default: the even split."""
        return [1.0 / self.game.num_seats] * self.game.num_seats

    def redacted_log(self, seat: int, hidden: Callable[[ActionRecord], bool]) -> list[ActionRecord]:
        """The log as ``seat`` may keep it in a sample: each record ``hidden`` says the seat did not see becomes
        ``HIDDEN_ACTION`` under its seat (the log's length, which caps count, stays)."""
        return [ActionRecord(r.seat, HIDDEN_ACTION) if r.seat != seat and hidden(r) else r for r in self.log]

    def apply_sampled_action(self, seat: int, action_id: str) -> None:
        """Apply a structured action a search just took from ``legal_action_ids(seat)`` of this very state, without
        asking the engine for the legal actions again (a random playout would otherwise build them twice a move).
        Only for samples (``sample_information_state``): a match's state takes every action through
        ``apply_action``'s checks."""
        if self.sampled_for is None:
            raise EngineError("apply_sampled_action is for sampled states only")
        self._apply(seat, action_id, None)
        self.log.append(ActionRecord(seat, action_id, None))

"""Sea Battle (GameBench's own game) as a pure engine: two fleets of three ships give orders simultaneously.

Each seat commands one team. A turn is a multi-step decision: the seat orders its live ships one after another
(always the first ship without an order, so eight legal actions at a time), and once both seats have ordered
every live ship the turn resolves (``board.resolve_turn``). Orders given before the other fleet's are in stay
hidden, as Atari Boxing hides a pending choice: they appear only in their own seat's observation and labels, and
everyone else learns only that an order was given. Other ships' damage is hidden too, as in GameBench's prompts.

The game ends when at most one team has ships afloat, or at the platform's ``turn_cap`` (GameBench had no cap).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from ..api import (
    Action,
    ActionLabels,
    Game,
    GameSpec,
    MeasureSpec,
    Observation,
    OptionSpec,
    State,
)
from .board import (
    INTERIOR_ROCKS,
    ORDER_IDS,
    SINK_AT,
    SIZE,
    Ship,
    resolve_turn,
)
from .evaluation import evaluate
from .rules import RULES
from .text import damage_words, observation_text, order_label, order_short, pending_words

TEAMS = ("Red", "Blue")
SHIPS_PER_TEAM = 3
TURN_CAP_RANGE = (1, 1000)
PLAYING, OVER = "playing", "over"
# The rule of GameBench's games/sea_battle.py (SeaBattle.move_ships and fire_cannons), as board._gamebench_step and
# board._gamebench_volley play it.
GAMEBENCH_RESOLUTION = (
    "Resolve turns exactly as GameBench's code (games/sea_battle.py) did. On each square of movement the ships are "
    "checked one by one in the order R1-R3, B1-B3 and each moves as soon as it is checked: rock costs 1 and the "
    "ship stays; otherwise its rivals are the ships then afloat that claim the same cell from another cell than its "
    "own at that moment (GameBench tells ships apart by position), a rival costs 1 on the first square (nothing on "
    "the second) and the ship stays. So a ship may sail into a cell its occupant failed to leave (two ships on one "
    "cell), ships on one cell never collide with each other, ships heading into each other's cells pass through, "
    "and balls fly one after another with ships sinking at once. Off: the fixed rules (no overlaps, such a swap is "
    "a collision, all balls at once)."
)


def damage_fragment(ship_id: str, damage: int) -> str:
    """How a ship's damage appears in its own fleet's observation data (a secret of that fleet)."""
    return json.dumps({ship_id: damage})[1:-1]


def pending_fragment(ship_id: str, order: str) -> str:
    return json.dumps({ship_id: order})[1:-1]


_OPENINGS: dict[tuple[int, int], tuple] = {}


def _opening(seed: int, draw: int, rng) -> tuple[tuple, tuple]:
    """Ships and interior rocks dealt by ``rng`` (the state's chance draw number ``draw``): the interior cells
    shuffled, the first six host the ships in fleet order, the next 14 become rocks; headings uniform. Kept per
    (seed, draw), because every JSON restore rebuilds the initial state before loading the payload."""
    key = (seed, draw)
    opening = _OPENINGS.get(key)
    if opening is None:
        interior = [(x, y) for x in range(1, SIZE - 1) for y in range(1, SIZE - 1)]
        rng.shuffle(interior)
        count = 2 * SHIPS_PER_TEAM
        ships = tuple((f"{TEAMS[i // SHIPS_PER_TEAM][0]}{i % SHIPS_PER_TEAM + 1}", i // SHIPS_PER_TEAM,
                       *interior[i], rng.choice("ENWS"), 0) for i in range(count))
        opening = (ships, tuple(sorted(interior[count:count + INTERIOR_ROCKS])))
        if len(_OPENINGS) > 512:
            _OPENINGS.clear()
        _OPENINGS[key] = opening
    return opening


class SeaBattleState(State):
    game: SeaBattleGame

    def __init__(self, game: SeaBattleGame, seed: int):
        super().__init__(game, seed)
        ships, rocks = _opening(self.seed, self.rng_draws + 1, self.rng())
        self.ships: list[Ship] = [Ship.from_json(s) for s in ships]
        self.rocks: list[tuple[int, int]] = list(rocks)
        self.turn = 1  # the turn being ordered (1-based)
        self.orders: dict[str, str] = {}  # pending orders of this turn, by ship id
        self.report: dict[str, Any] | None = None  # what the last resolved turn did (public)
        self.status = PLAYING
        self.ending = ""  # "sunk" (at most one fleet afloat) or "cap"

    # --- whose move --------------------------------------------------------------------------------
    def fleet(self, seat: int) -> list[Ship]:
        return [s for s in self.ships if s.team == seat]

    def next_ship(self, seat: int) -> Ship | None:
        """The first live ship of this seat's fleet without an order for this turn."""
        return next((s for s in self.fleet(seat) if s.id not in self.orders), None)

    def current_seats(self) -> list[int]:
        if self.status != PLAYING:
            return []
        return [seat for seat in (0, 1) if self.next_ship(seat) is not None]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.current_seats():
            return []
        ship = self.next_ship(seat)
        rocks = frozenset(self.rocks)
        return [Action(order, f"{ship.id}: {order_label(order, ship, rocks)}") for order in ORDER_IDS]

    def legal_action_ids(self, seat: int) -> list[str]:
        # Every order is open to the ship to order; only the labels depend on it (a search needs no labels).
        return list(ORDER_IDS) if seat in self.current_seats() else []

    def _apply(self, seat: int, action_id: str, text: str | None) -> None:
        self.orders[self.next_ship(seat).id] = action_id
        if all(s.id in self.orders for s in self.ships):
            self._resolve()

    def _resolve(self) -> None:
        order_of = [s.id for s in self.ships]
        afloat, report = resolve_turn(self.ships, self.orders, set(self.rocks),
                                      gamebench=self.game.options["gamebench_resolution"])
        self.ships = afloat
        self.report = {
            "turn": self.turn,
            # In fleet order, not the order given (a JSON round trip with sorted keys would change that).
            "orders": [[ship_id, report.orders[ship_id]] for ship_id in order_of],
            "moves": [[ship_id, list(a), list(b)] for ship_id, a, b in report.moves],
            "bumps": [list(b) for b in report.bumps],
            "shots": [[ship_id, list(a), list(b), hit] for ship_id, a, b, hit in report.shots],
            "sunk": list(report.sunk),
        }
        self.orders = {}
        teams_afloat = {s.team for s in self.ships}
        if len(teams_afloat) <= 1:
            self.status, self.ending = OVER, "sunk"
        elif self.turn >= self.game.options["turn_cap"]:
            self.status, self.ending = OVER, "cap"
        else:
            self.turn += 1

    # --- results -----------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.status == OVER

    def _cap_standing(self, seat: int) -> tuple[int, int]:
        """What decides a game stopped at the turn cap: more ships afloat, then less total damage on them."""
        fleet = self.fleet(seat)
        return (len(fleet), -sum(s.damage for s in fleet))

    def winning_seat(self) -> int | None:
        if not self.is_terminal():
            return None
        if self.ending == "sunk":
            teams_afloat = {s.team for s in self.ships}
            return teams_afloat.pop() if teams_afloat else None
        red, blue = self._cap_standing(0), self._cap_standing(1)
        return None if red == blue else (0 if red > blue else 1)

    def scores(self) -> list[float]:
        if not self.is_terminal():
            return [0.5, 0.5]
        winner = self.winning_seat()
        return [0.5, 0.5] if winner is None else [1.0 if s == winner else 0.0 for s in (0, 1)]

    def result_text(self) -> str | None:
        """The board's last line: who won (as the page's status line has it from the scores) and why."""
        if not self.is_terminal():
            return None
        winner = self.winning_seat()
        if self.ending == "sunk":
            if winner is None:
                return "Both fleets sank on the same turn: a draw."
            return f"{TEAMS[winner]} wins: the last fleet afloat."
        outcome = "A draw." if winner is None else f"{TEAMS[winner]} wins."
        return f"{self.end_reason()} {outcome}"

    def end_reason(self) -> str | None:
        """Why the battle ended: a fleet sunk (or both on one turn), or the turn cap and what decided it there:
        more ships afloat, then less total damage (every ship's damage is public once the battle is over)."""
        if not self.is_terminal():
            return None
        if self.ending == "sunk":
            afloat = {s.team for s in self.ships}
            if not afloat:
                return f"The last ships of both fleets sank on turn {self.turn}."
            winner = afloat.pop()
            left = len(self.fleet(winner))
            return (f"The last {TEAMS[1 - winner]} ship sank on turn {self.turn}; {TEAMS[winner]} still has "
                    f"{left} ship{'' if left == 1 else 's'} afloat.")
        cap = self.game.options["turn_cap"]
        reached = f"The turn cap of {cap} turn{'' if cap == 1 else 's'} was reached"
        ships = [len(self.fleet(seat)) for seat in (0, 1)]
        damage = [sum(s.damage for s in self.fleet(seat)) for seat in (0, 1)]
        if ships[0] != ships[1]:
            more = 0 if ships[0] > ships[1] else 1
            return f"{reached}; {TEAMS[more]} has more ships afloat ({ships[more]} to {ships[1 - more]})."
        each = f"{ships[0]} ship{'' if ships[0] == 1 else 's'} afloat each"
        if damage[0] != damage[1]:
            less = 0 if damage[0] < damage[1] else 1
            return (f"{reached} with {each}; {TEAMS[less]}'s fleet has less total damage "
                    f"({damage[less]} to {damage[1 - less]}).")
        return f"{reached} with {each} and equal total damage ({damage[0]} each)."

    def measures(self, seat: int) -> dict[str, Any]:
        played = self.turn if self.is_terminal() else self.turn - 1
        return {"turns": played, "ships_afloat": len(self.fleet(seat)),
                "enemy_ships_sunk": SHIPS_PER_TEAM - len(self.fleet(1 - seat)),
                "ended_at_cap": self.ending == "cap"}

    def evaluation(self) -> list[float]:
        """Estimated scores of an unfinished battle: the turn finished with assumed orders, then fleets, hit points
        and aim weighed against the turns left (``evaluation.py``); the scores once it is over."""
        return evaluate(self)

    # --- labels, topics, observations ----------------------------------------------------------------
    def action_labels(self, seat: int, action_id: str, text: str | None = None) -> ActionLabels:
        """An order reads in full to its own fleet only; the others learn which ship got an order. The order
        that completes a turn resolves it, so its label tells everyone every order of the turn."""
        ship = self.next_ship(seat)
        if ship is None or action_id not in ORDER_IDS:
            return super().action_labels(seat, action_id, text)
        everyone_in = len(self.orders) + 1 == len(self.ships)
        if everyone_in:
            orders = {**self.orders, ship.id: action_id}
            public = f"Turn {self.turn}: " + ", ".join(f"{s.id} {order_short(orders[s.id])}" for s in self.ships)
            return ActionLabels(by_seat=(public, public), public=public)
        hidden = f"{TEAMS[seat]} gave {ship.id} its order for turn {self.turn} (hidden until both fleets are in)"
        own = f"{pending_words(ship.id, action_id)} for turn {self.turn}"
        return ActionLabels(by_seat=tuple(own if s == seat else hidden for s in (0, 1)), public=hidden)

    def rule_topics(self, seat: int, action_id: str) -> tuple[str, ...]:
        if action_id not in ORDER_IDS or seat not in self.current_seats():
            return ()
        topics = ["Board and headings", "Movement", "Cannons"]
        if not action_id.startswith("stay"):
            topics.append("Collisions")
        return tuple(topics)

    def secrets(self) -> dict[int, list[str]]:
        """Per fleet: its pending orders and its ships' damage, as its own observation and labels word them. Once
        the battle is over every ship's damage is revealed (it decides a game stopped at the turn cap), so it is no
        longer a secret."""
        result: dict[int, list[str]] = {}
        over = self.is_terminal()
        for seat in (0, 1):
            values = []
            for ship in self.fleet(seat):
                if not over:
                    values += [damage_fragment(ship.id, ship.damage), damage_words(ship.id, ship.damage)]
                if ship.id in self.orders:
                    order = self.orders[ship.id]
                    values += [pending_fragment(ship.id, order), pending_words(ship.id, order)]
            result[seat] = values
        return result

    def observation(self, seat: int | None) -> Observation:
        if seat not in (0, 1, None):
            raise ValueError(f"no seat {seat!r} in a two-fleet game")
        ships = [{"id": s.id, "team": s.team, "x": s.x, "y": s.y, "heading": s.heading,
                  "mine": seat is not None and s.team == seat} for s in self.ships]
        to_order = self.next_ship(seat) if seat is not None and self.status == PLAYING else None
        data: dict[str, Any] = {
            "seat": seat,
            "teams": list(TEAMS),
            "size": SIZE,
            "turn": self.turn,
            "turn_cap": self.game.options["turn_cap"],
            "rocks": [list(r) for r in self.rocks],
            "ships": ships,
            "sink_at": SINK_AT,
            # A fleet's own damage; every ship's once the battle is over (nothing is hidden any more).
            "damage": {s.id: s.damage for s in self.ships if self.is_terminal() or s.team == seat},
            "my_orders": {s.id: self.orders[s.id] for s in self.fleet(seat) if s.id in self.orders}
            if seat is not None else {},
            "to_order": to_order.id if to_order else None,
            "fleet_ready": [self.status == PLAYING and self.next_ship(s) is None for s in (0, 1)],
            "last_turn": self.report,
            "status": self.status,
            "result": self.result_text(),
        }
        return Observation(seat, data, observation_text(data))

    # --- search (spec.information_sampling) ---------------------------------------------------------------
    def _draw_information_state(self, seat: int, rng: random.Random) -> SeaBattleState:
        """``seat``'s information set: only the other fleet's orders given this turn are unknown to it; they are
        drawn anew (every order is legal to every ship, so uniformly), in the order the ships were ordered, and
        the log keeps them as hidden records. Everything else stays: positions, headings and rocks are public, and
        so is every ship's damage, since each turn's public report lists every bump and hit (damage is the sum of
        them, so a seat that read every report knows it); the seed only dealt the opening, which is public."""
        sample = self.clone()
        other = 1 - seat
        theirs = {s.id for s in self.fleet(other)}
        sample.orders = {ship_id: rng.choice(ORDER_IDS) if ship_id in theirs else order
                         for ship_id, order in self.orders.items()}
        pending = {id(record) for record in self.log[len(self.log) - len(self.orders):]}
        sample.log = self.redacted_log(seat, lambda record: id(record) in pending)
        sample.seed = rng.getrandbits(62)
        return sample

    # --- persistence ---------------------------------------------------------------------------------
    PAYLOAD_FIELDS = ("turn", "orders", "report", "status", "ending")

    def _payload(self) -> dict:
        ships, rocks = [s.to_json() for s in self.ships], [list(r) for r in self.rocks]
        return {**super()._payload(), "ships": ships, "rocks": rocks}

    def _load_payload(self, payload: Mapping[str, Any]) -> None:
        super()._load_payload(payload)
        self.ships = [Ship.from_json(s) for s in payload["ships"]]
        self.rocks = [(int(x), int(y)) for x, y in payload["rocks"]]


class SeaBattleGame(Game):
    spec = GameSpec(
        id="sea_battle",
        name="Sea Battle",
        description=(
            "GameBench's team naval battle: two fleets of three ships on a 24x24 sea with rocks give secret "
            "orders each turn (a move and which side to fire), resolved simultaneously; the last fleet afloat wins."
        ),
        min_seats=2,
        max_seats=2,
        reasoning_categories=("abstract_strategy", "non_deterministic", "cooperation"),
        perfect_information=False,  # orders are secret until both fleets are in; other fleets' damage is hidden
        simultaneous=True,
        information_sampling=True,
        has_evaluation=True,
        has_chance=True,
        options=(
            OptionSpec("turn_cap", 100, "Platform rule (GameBench had no limit): the battle stops after this many "
                       "turns; then the fleet with more ships afloat wins, then the one with less damage, else a "
                       "draw.", type=int, bounds=TURN_CAP_RANGE, short_value=4, label="Turn cap"),
            OptionSpec("gamebench_resolution", False, GAMEBENCH_RESOLUTION, type=bool,
                       label="GameBench: turn resolution"),
        ),
        seat_names=TEAMS,
        measures=(
            MeasureSpec("turns", "Turns resolved so far."),
            MeasureSpec("ships_afloat", "This fleet's ships still afloat."),
            MeasureSpec("enemy_ships_sunk", "Ships of the other fleet sunk."),
            MeasureSpec("ended_at_cap", "The battle was stopped by the turn cap.", kind="bool"),
        ),
    )
    state_class = SeaBattleState
    rules = RULES

    def max_actions(self) -> int:
        """Every turn takes at most one order per ship."""
        return self.options["turn_cap"] * 2 * SHIPS_PER_TEAM

"""Plays one Gnomes at Night round between the simulated partner and an ego agent, and measures it.

Seat 0 is the simulated partner on side 0 and seat 1 the ego agent on side 1, as in the paper (the human is
player 0, the agent player 1); seat 0 moves first. Each decision gets a TurnView built the way
agents_app.services.turn_view builds one, with a seed that is a pure function of (seed, round, turn, seat),
so a round replays exactly. Chat goes through ``state.record_message`` right after the move, as the platform
does it; with ``chat=False`` (the mute control, as a study's mute condition plays it) chat is off for both
seats, so neither reads a line from the other. Pure: no Django, no database.

A round that reaches the turn cap without the treasure is censored: its time to the treasure is only known to
be longer. ``summarise`` counts it as the cap in ``mean_turns`` (as the paper does), says how many there were,
and gives the turns of the finished rounds apart, never silently dropping the others.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scipy.stats import binomtest

from agents_app.agents.base import Agent, TurnView
from agents_app.agents.intervals import cluster_mean_ci95
from gameplay.bench.measures import percentile
from gameplay.engines.gnomes import GnomesGame
from gameplay.engines.gnomes.game import FOUND
from gameplay.engines.seeding import derive_seed

GAME_ID = "gnomes"
PARTNER_SEAT, EGO_SEAT = 0, 1


@dataclass
class RoundResult:
    round: int
    seed: int
    turns: int
    found: bool
    wall_hits: int
    turn_cap: int
    messages: dict[str, int] = field(default_factory=dict)  # "agent" / "partner" -> messages sent
    think_ms: list[float] = field(default_factory=list)  # the ego agent's time per decision
    repeats: int = 0  # agent lines identical to its previous line with no partner line between them

    def to_json(self) -> dict:
        return asdict(self)


def decision_seed(seed: int, round_number: int, turn: int, seat: int) -> int:
    """Per-decision seed: the same (seed, round, turn, seat) always gives the same decision."""
    return derive_seed("gnomes-decision", seed, round_number, turn, seat)


def view_for(state, seat: int, seed: int) -> TurnView:
    """The seat's TurnView made of its SeatView, as agents_app.services.turn_view builds it (without the optional
    image or the match log): this harness referees its own simulated rounds, its agents see only their seats."""
    view = state.seat_view(seat)
    return TurnView(
        game_id=GAME_ID,
        seat=seat,
        observation=view.observation,
        legal_actions=view.legal_actions,
        text_actions=view.text_actions,
        rules=state.game.rules,
        seed=seed,
    )


def play_round(
    ego: Agent, partner: Agent, round_number: int, seed: int, turn_cap: int = 200, chat: bool = True
) -> RoundResult:
    options = {"round": round_number, "first_seat": PARTNER_SEAT, "turn_cap": turn_cap, "chat": chat}
    game = GnomesGame(options=options)
    state = game.new_initial_state(seed)
    agents = {PARTNER_SEAT: partner, EGO_SEAT: ego}
    sent = {PARTNER_SEAT: 0, EGO_SEAT: 0}
    repeats, previous = 0, None  # the agent's previous line, forgotten once the partner speaks
    think_ms: list[float] = []
    while not state.is_terminal():
        seat = state.current_seats()[0]
        view = view_for(state, seat, decision_seed(seed, round_number, state.turn, seat))
        started = time.perf_counter()
        decision = agents[seat].decide(view)
        if seat == EGO_SEAT:
            think_ms.append((time.perf_counter() - started) * 1000)
        state.apply_action(seat, decision.action_id)
        if decision.message and chat and not state.is_terminal():
            state.record_message(seat, decision.message)
            sent[seat] += 1
            if seat == EGO_SEAT:
                repeats += decision.message == previous
                previous = decision.message
            else:
                previous = None
    return RoundResult(
        round=round_number,
        seed=seed,
        turns=state.turn,
        found=state.status == FOUND,
        wall_hits=state.wall_hits,
        turn_cap=turn_cap,
        messages={"agent": sent[EGO_SEAT], "partner": sent[PARTNER_SEAT]},
        repeats=repeats,
        think_ms=think_ms,
    )


# --- many rounds ---------------------------------------------------------------------------------------------


def make_ego(kind: str, budget: int) -> Agent:
    # Imported here so that the runner above stays usable with any Agent.
    from .comm_agent import GnomesCommAgent
    from .mute_agent import GnomesMuteAgent

    agents = {"comm": GnomesCommAgent, "mute": GnomesMuteAgent}
    if kind not in agents:
        raise ValueError(f"unknown ego {kind!r}; expected one of {sorted(agents)}")
    return agents[kind](budget=budget)


def chat_for(kind: str) -> bool:
    """The mute control plays with chat off for both seats (as a study's mute condition); comm with chat on."""
    return kind != "mute"


# The partners gnomes_eval offers: the template partner, the same partner speaking free-form lines people might
# type, and that partner made unreliable (it sometimes lies about a direction or a wall, or ignores a request).
PARTNERS = ("template", "freeform", "unreliable")
UNRELIABLE_LIE_RATE, UNRELIABLE_IGNORE_RATE = 0.15, 0.2
FREEFORM_SET = Path(__file__).resolve().parents[3] / "fixtures" / "gnomes" / "partner_freeform.jsonl"


def make_partner(kind: str) -> Agent:
    from .partner import SimulatedPartner
    from .partner_speech import FreeformSpeech

    if kind == "template":
        return SimulatedPartner()
    if kind == "freeform":
        return SimulatedPartner(FreeformSpeech.from_file(FREEFORM_SET))
    if kind == "unreliable":
        return SimulatedPartner(
            FreeformSpeech.from_file(FREEFORM_SET), lie_rate=UNRELIABLE_LIE_RATE, ignore_rate=UNRELIABLE_IGNORE_RATE
        )
    raise ValueError(f"unknown partner {kind!r}; expected one of {PARTNERS}")


def play_job(job: tuple) -> RoundResult:
    """One (ego kind, round, seed, budget[, partner kind]) job; a top-level function so worker processes can run
    it."""
    kind, round_number, seed, budget, *rest = job
    partner = make_partner(rest[0] if rest else "template")
    return play_round(make_ego(kind, budget), partner, round_number, seed, chat=chat_for(kind))


# The per-round values behind the means ``summarise`` gives a 95% interval across seeds (``ci95``).
SEED_MEANS = {
    "mean_turns": lambda r: [r.turns],
    "mean_turns_finished": lambda r: [r.turns] if r.found else [],
    "mean_wall_hits": lambda r: [r.wall_hits],
    "mean_messages_agent": lambda r: [r.messages["agent"]],
    "mean_messages_partner": lambda r: [r.messages["partner"]],
    "mean_think_ms": lambda r: list(r.think_ms),
}


def across_seeds(results: list[RoundResult]) -> dict:
    """For each mean of ``summarise``, its 95% interval across seeds (``intervals.cluster_mean_ci95``): centred on
    that mean, with the seeds as the independent draws, so a seed that played several rounds (the overall entry)
    or many decisions (think time) counts once. With one round per seed it is the t-interval of the rounds' values.
    [None, None] with a single seed, or no value (no finished round)."""
    by_seed: dict[int, list[RoundResult]] = {}
    for result in results:
        by_seed.setdefault(result.seed, []).append(result)
    ci = {}
    for name, values in SEED_MEANS.items():
        groups = [[v for r in rounds for v in values(r)] for rounds in by_seed.values()]
        interval = cluster_mean_ci95(groups) if any(groups) else None
        ci[name] = [None, None] if interval is None or interval.low is None else [
            round(interval.low, 2), round(interval.high, 2)]
    return ci


def summarise(results: list[RoundResult]) -> dict:
    """Means over all rounds, an unsuccessful (censored) round counting as turn_cap turns, each with its 95% interval
    across seeds (``ci95``: a t-interval, ``across_seeds``); the success rate with its 95% Wilson interval (scipy);
    the count of censored rounds and the mean turns of the finished ones."""
    if not results:
        return {"n": 0}
    n = len(results)
    found = [r for r in results if r.found]
    interval = binomtest(len(found), n).proportion_ci(confidence_level=0.95, method="wilson")
    think = sorted(ms for r in results for ms in r.think_ms)
    return {
        "n": n,
        "mean_turns": round(sum(r.turns for r in results) / n, 2),
        "success_rate": round(len(found) / n, 3),
        "success_ci95": [round(interval.low, 3), round(interval.high, 3)],
        "failures": n - len(found),
        "censored": sum(not r.found and r.turns >= r.turn_cap for r in results),
        "mean_turns_finished": round(sum(r.turns for r in found) / len(found), 2) if found else None,
        "mean_wall_hits": round(sum(r.wall_hits for r in results) / n, 2),
        "mean_messages_agent": round(sum(r.messages["agent"] for r in results) / n, 2),
        "mean_messages_partner": round(sum(r.messages["partner"] for r in results) / n, 2),
        "agent_per_partner_message": _ratio(
            sum(r.messages["agent"] for r in results), sum(r.messages["partner"] for r in results)
        ),
        "repeated_agent_lines": sum(r.repeats for r in results),
        "mean_think_ms": round(sum(think) / len(think), 2) if think else 0.0,
        "p95_think_ms": round(percentile(think, 95), 2) if think else 0.0,
        "seeds": len({r.seed for r in results}),
        "ci95": across_seeds(results),
    }


def _ratio(agent: int, partner: int) -> float | None:
    """Agent lines per partner line over the rounds; None when the partner never spoke."""
    return round(agent / partner, 3) if partner else None

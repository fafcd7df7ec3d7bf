"""The rules text, the fixed scenario and the instruction sets of Meeting Scheduling."""

from __future__ import annotations

from ..api import Rules
from ..dialogue import ANY, DialogueSpec, InstructionSet

DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
PAYOFF_BOUNDS = (0.0, 20.0)  # OpenSpiel's utility range for this domain, used to normalise payoffs

# OpenSpiel's fixed scenario (the "Bob"/"Suzy" configs): seat 0 is Bob, seat 1 is Suzy. Bob's values on his own
# out-of-office days are kept on purpose: they are unattainable under our rules (sheet §8.2).
FIXED_PROFILES = (
    {"ooo": ["tuesday", "wednesday", "saturday"],
     "prefs": {"monday": 10, "tuesday": 5, "wednesday": 15, "thursday": 3, "friday": 2, "saturday": 1, "sunday": 1}},
    {"ooo": ["monday", "wednesday", "saturday"],
     "prefs": {"monday": 5, "tuesday": 5, "wednesday": 5, "thursday": 1, "friday": 1, "saturday": 1, "sunday": 1}},
)
FIXED_OPENING_DAY = "thursday"  # in the scenario's opening e-mail Bob asks for Thursday

SCHEDULE = "Your private schedule"
PROPOSING = "Proposing and accepting"
TURN_LIMIT = "Turn limit"
PAYOFF = "Payoff"

RULES = Rules(
    summary=(
        "Two people negotiate by message which weekday to meet. You privately know the days you are out of office "
        "and how much you value each day. Each turn, write a message and either propose a day, accept the other's "
        "proposal, walk away, or just talk. An agreement pays each of you your own value for that day; no agreement "
        "pays nothing."
    ),
    topics={
        SCHEDULE: (
            "Each player has a private schedule: a set of weekdays they are out of office and a value for every "
            "weekday (how much they like meeting then). The other player never sees it, only what you choose to "
            "tell them. Both schedules are shown to both players once the game is over."
        ),
        PROPOSING: (
            "propose:<day> names a weekday you can attend (not one of your out-of-office days); it replaces your "
            "earlier proposal, if any. accept agrees to the other player's standing proposal; you can accept only "
            "when they have one and you are not out of office that day. Accepting ends the game with an agreement "
            "on that day. walk_away ends the game without an agreement. talk sends a message and nothing else. "
            "Every move carries a message."
        ),
        TURN_LIMIT: (
            "Players take turns. Each player has a fixed number of turns (the option max_turns_per_seat, 3 by "
            "default); talk-only turns count too. When both have used all their turns without an agreement, the "
            "game ends with no agreement."
        ),
        PAYOFF: (
            "With an agreement on a day, each player gets their own value for that day (values range from 0 to "
            "20); with no agreement (a walk-away or the turn limit) both get 0. The platform's score splits 1 "
            "between the players in proportion to their payoffs (evenly when both get 0)."
        ),
    },
)

TONES = InstructionSet(
    name="tone",
    instructions=("calm", "assertive", "submissive", ANY),
    template="Write your message in a {} tone.",
)
DAY_INSTRUCTIONS = InstructionSet(
    name="day",
    instructions=(*DAYS, ANY),
    template="Insist on meeting on {}.",
)
# The seed's actions in this domain are the days to propose (§3.2, Table 1's CFR runs; OpenSpiel's dow configs), so
# CFR solves over days unless told otherwise. Its PSRO runs grow tones (Appendix D: "submissive", then "assertive"
# and "happy"; OpenSpiel's PSRO example is tone-only), and a new day is no instruction, so PSRO keeps the tone set.
# The tone set stays first: a steered seat's control reads its "any" from it, and either set can be named.
DIALOGUE = DialogueSpec(instruction_sets=(TONES, DAY_INSTRUCTIONS), payoff_bounds=PAYOFF_BOUNDS,
                        solver_sets=(("cfr", DAY_INSTRUCTIONS.name),))

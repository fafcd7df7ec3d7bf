"""The endings of the dialogue games, each way Meeting Scheduling, Fruit Trading and Debate end by their rules as an
Ending from a position just before it: test_dialogue_games.py plays them through the platform,
test_every_game_covered.py checks that they cover every game."""

from __future__ import annotations

from gameplay.engines.debate import DebateGame
from tests.engines.fruit_trading_support import new_state as fruit_state
from tests.engines.meeting_scheduling_support import fixed as meeting_state

from .support import JUDGE, Ending

BOB, SUZY = 0, 1


def after(build, *moves):
    def position():
        state = build()
        for move in moves:
            state.apply_action(*move)
        return state

    return position


MEETING = [
    Ending("meeting_scheduling-agreement", "meeting_scheduling",
           after(meeting_state, (BOB, "propose:thursday", "Thursday?")), ((SUZY, "accept", "Thursday it is."),),
           None, "Player 2 accepted Player 1's proposal to meet on Thursday.", says="Agreement on Thursday"),
    Ending("meeting_scheduling-walked-away", "meeting_scheduling", meeting_state, ((BOB, "walk_away", "No."),),
           None, "Player 1 walked away without an agreement.", says="No agreement: Player 1 walked away."),
    Ending("meeting_scheduling-turn-limit", "meeting_scheduling",
           after(lambda: meeting_state(max_turns_per_seat=1), (BOB, "talk", "Hmm.")), ((SUZY, "talk", "Hmm."),),
           None, "The limit of 1 turn per player was reached without an agreement.",
           says="No agreement: the players ran out of turns."),
]

FRUIT_TRADING = [
    Ending("fruit_trading-trade", "fruit_trading",
           after(fruit_state, (BOB, "propose:banana1:kiwi2", "A banana for two kiwis?")),
           ((SUZY, "accept", "Deal."),), None, "Player 2 accepted Player 1's offer of 1 banana for 2 kiwis.",
           says="Trade: Player 1 gave 1 banana to Player 2 for 2 kiwis"),
    Ending("fruit_trading-walked-away", "fruit_trading", fruit_state, ((BOB, "walk_away", "Not today."),),
           None, "Player 1 walked away without a trade.", says="Player 1 walked away: no trade"),
    Ending("fruit_trading-turn-limit", "fruit_trading",
           after(lambda: fruit_state(max_turns_per_seat=1), (BOB, "talk", "Let us think.")),
           ((SUZY, "talk", "Let us think."),), None, "The limit of 1 turn per player was reached without a trade.",
           says="Out of turns: no trade"),
]

# --- Debate: For argues, then Against's argument ends the debate and the judge (or the rule) decides ---------------


def debate(ending_id, mode, for_text, against_text, verdict, source, reason, says):
    def build():
        state = DebateGame({"topic": 0, "rounds_per_side": 1, "judging": mode}).new_initial_state(0)
        state.apply_action(0, "argue:logos", for_text)
        return state

    final = ((1, "argue:logos", against_text), (JUDGE, verdict, source))
    return Ending(ending_id, "debate", build, final, None, reason, says=says)


STRONG, WEAK = "Because kids who eat breakfast score 10% higher.", "Mornings are lovely."
DEBATE = [
    debate("debate-rule-for-more-points", "single", STRONG, WEAK, "for", "rule",
           "the judging rule gave For 2 points and Against 0 points.", "Verdict by the rule: For wins."),
    debate("debate-rule-against-more-points", "single", "It helps.", "Because 3 studies say so.", "against", "rule",
           "the judging rule gave For 0 points and Against 2 points.", "Verdict by the rule: Against wins."),
    debate("debate-rule-equal-points-draw", "single", "It helps.", "No way.", "draw", "rule",
           "the judging rule gave both sides 0 points.", "Verdict by the rule: a draw."),
    debate("debate-rule-openspiel-both-convincing", "openspiel", "Because it helps.", "Since it hurts.", "both",
           "rule", "the judging rule gave both sides 1 point.", "Verdict by the rule: both sides win."),
    debate("debate-rule-openspiel-neither-convincing", "openspiel", "It helps.", "No way.", "neither", "rule",
           "the judging rule gave both sides 0 points.", "Verdict by the rule: neither side wins."),
    *(debate(f"debate-judge-{mode}-{verdict}", mode, "It helps.", "No way.", verdict, "gpt-judge",
             f"the judge (gpt-judge) found that {finding}.", f"Verdict by the judge (gpt-judge): {words}.")
      for mode, verdict, finding, words in [
          ("single", "for", "For argued better", "For wins"),
          ("single", "against", "Against argued better", "Against wins"),
          ("single", "draw", "both sides argued equally well", "a draw"),
          ("openspiel", "both", "both sides argued convincingly", "both sides win"),
          ("openspiel", "for", "only For argued convincingly", "For wins"),
          ("openspiel", "against", "only Against argued convincingly", "Against wins"),
          ("openspiel", "neither", "neither side argued convincingly", "neither side wins"),
      ]),
]

ENDINGS = MEETING + FRUIT_TRADING + DEBATE

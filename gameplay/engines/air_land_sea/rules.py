"""Rules text for people and language-model players, in our own words (cards are spelled "Air 3", never by
their ids, which the engine keeps as secret markers)."""

from __future__ import annotations

from ..api import Rules

BATTLE = "Battle structure"
CONTROL = "Theaters and control"
PLAYS = "Deploy / Improvise / Withdraw"
CARD_LIST = "Card list and abilities"
TIMING = "Ability timing and flips"
WITHDRAWAL = "Withdrawal scoring"
NEXT = "Next battle setup"

SUMMARY = (
    "Two-player card battle over three theaters (Air, Land, Sea) laid in a row. Each battle both players get 6 "
    "cards and take turns playing one card: face up into the theater of its own type (its ability takes effect) "
    "or face down into any theater as a strength-2 card; or withdraw instead. When both hands are empty, whoever "
    "controls two or more theaters (the higher total strength there; ties go to the 1st Player) wins 6 VP; a "
    "withdrawal gives the opponent 2 to 6 VP depending on the cards left in hand. First to 12 VP wins the game; "
    "the 1st Player role alternates each battle. Some abilities ask for a follow-up choice right after the play."
)

TOPICS = {
    BATTLE: (
        "A battle: all 18 cards are shuffled, 6 dealt to each player, 6 form a face-down deck nobody sees. The 1st "
        "Player moves first and players alternate one action per turn. Nobody draws during a battle (except by "
        "Reinforce). The battle ends when a player withdraws, or when both hands are empty after a turn."
    ),
    CONTROL: (
        "Each theater has one stack per player; a new card goes on top and covers the earlier ones (only the top "
        "card of a stack is uncovered). Your total in a theater is the sum of your cards' strengths there plus 3 "
        "for each of your face-up Air 1 Support cards in an adjacent theater. Face-up cards count their printed "
        "strength, face-down cards 2 (4 while you have a face-up Sea 2 Escalation), cards covered by your own "
        "face-up Land 4 Cover Fire count 4. You control a theater with the strictly higher total; ties, including "
        "empty theaters, go to the 1st Player. Only the middle theater is adjacent to the two outer ones."
    ),
    PLAYS: (
        "Deploy: a hand card face up into the theater of its own type (any theater with a pending Air Drop, or for "
        "strength 3 or less while you have a face-up Air 4 Aerodrome). Improvise: any card face down into any "
        "theater. A play is destroyed at once (to the bottom of the deck, with no effect) if it is face down while "
        "any Air 5 Containment is face up, or if it goes into a theater adjacent to a face-up Sea 5 Blockade that "
        "already holds 3 or more cards. Withdraw: give up the battle (see Withdrawal scoring)."
    ),
    CARD_LIST: (
        "Air: 1 Support (ongoing, +3 in each adjacent theater), 2 Air Drop (instant, your next play may go face up "
        "anywhere), 3 Maneuver (instant, flip an uncovered card in an adjacent theater), 4 Aerodrome (ongoing, your "
        "strength 1-3 cards may be deployed anywhere), 5 Containment (ongoing, face-down plays are destroyed), "
        "6 Heavy Bombers. Land: 1 Reinforce (instant, put the top deck card face down into an adjacent theater), "
        "2 Ambush (instant, flip an uncovered card in any theater), 3 Maneuver, 4 Cover Fire (ongoing, your cards "
        "under it count 4), 5 Disrupt (instant, you flip one of your uncovered cards, then your opponent flips one "
        "of theirs), 6 Heavy Tanks. Sea: 1 Transport (instant, you may move one of your cards to another theater), "
        "2 Escalation (ongoing, your face-down cards count 4), 3 Maneuver, 4 Redeploy (instant, you may return one "
        "of your face-down cards to hand and then play again), 5 Blockade (ongoing, plays into an adjacent theater "
        "already holding 3+ cards are destroyed), 6 Super Battleship."
    ),
    TIMING: (
        "An instant ability happens once, when the card is played face up or flipped face up; ongoing abilities "
        "work while the card is face up. The card's owner makes its choices, even when the opponent flipped it. "
        "Flips turn an uncovered card over; a card flipped face up triggers its instant. Several triggered "
        "instants resolve one at a time, in the order they were triggered. Moves (Transport) are not plays. Air "
        "Drop is used up by your very next play. Reinforce's card is seen only by its owner and is a play."
    ),
    WITHDRAWAL: (
        "When you withdraw, your opponent scores by your Supreme Commander card and your cards left in hand. As 1st "
        "Player: 4 or more left: 2 VP; 2-3: 3 VP; 1: 4 VP; 0: 6 VP. As 2nd Player: 5 or more: 2 VP; 3-4: 3 VP; "
        "2: 4 VP; 0-1: 6 VP."
    ),
    NEXT: (
        "After a battle, if the winner has 12 VP (or the target) the game ends. Otherwise the theaters rotate (the "
        "rightmost moves to the far left), the 1st and 2nd Player cards swap, and all 18 cards are reshuffled and "
        "dealt again. Platform rule: a game stops after the action cap (more VP wins)."
    ),
}

RULES = Rules(SUMMARY, TOPICS)


def topics_for(action_id: str, decision: dict | None) -> tuple[str, ...]:
    verb = action_id.split(":")[0]
    if verb == "next_battle":
        return (NEXT,)
    if verb == "withdraw":
        return (WITHDRAWAL, BATTLE)
    if verb == "play":
        found = (PLAYS, CONTROL, CARD_LIST)
        return (*found, TIMING) if decision else found
    return (CARD_LIST, TIMING)

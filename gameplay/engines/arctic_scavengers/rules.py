"""Rules text for people and language-model players, written for this project from the fact sheet."""

from __future__ import annotations

from ..api import Rules

RULES = Rules(
    summary=(
        "Deck-building survival game for 2-5 tribes. Each round every tribe draws 5 cards from its own deck. On "
        "your turn you may do each of DRAW, DIG (search the junkyard), HUNT (gain food), HIRE (buy a mercenary "
        "with food and medicine) and TRASH at most once, playing cards face up for them; then you keep any of "
        "your remaining cards face down for the skirmish. From round 3 on, all kept cards are revealed together "
        "and the strongest tribe wins the top contested resource. When the contested pile runs out (after round "
        "16), the tribe with the most people over all its cards wins."
    ),
    topics={
        "Round phases": (
            "1. Draw: every tribe puts last round's cards on its discard pile and draws 5; an empty deck is "
            "refilled by shuffling the discard pile. From round 3 the Initiator secretly looks at the top "
            "contested resource. 2. Resource gathering: starting with the Initiator, each tribe in turn plays "
            "actions, then ends its turn; in a skirmish round it then drops the cards it does not want to fight "
            "with (face up, to its discard pile) and keeps the rest face down. 3. Skirmish (round 3 on): kept "
            "cards are revealed together, Saboteurs and Sniper Teams act, and strengths are compared. The first "
            "Initiator keeps the card for rounds 1-3; from round 4 it passes to the next tribe every round."
        ),
        "Actions and combining cards": (
            "DRAW, DIG and HUNT are played by choosing the action and then adding cards one at a time: people "
            "with a value for that action (0 counts) add it; each person may carry one tool that boosts that "
            "action, and each person may also be led by one Group Leaders (+2). Tools and Group Leaders never act "
            "alone: you can only add one while there are more people than tools (or leaders) in the group. "
            "Confirm with 'go'. DRAW: draw that many cards. DIG: look at that many junkyard cards (only you see "
            "them), keep at most one in your discard pile, the rest go under the junkyard. HUNT: gain that much "
            "food for this turn's HIRE; unspent food is lost. TRASH: put any number of hand cards into the "
            "junkyard (Refugees leave the game), then the junkyard is shuffled. Each action at most once per turn; "
            "cards you play go to your discard pile."
        ),
        "Card list": (
            "People (people count; actions): Refugee (1; DIG 0, HUNT 0), Scavenger (1; DRAW 1, DIG 1, HUNT 1, "
            "FIGHT 1), Brawler (1; DIG 1, FIGHT 2), Hunter (1; HUNT 2, FIGHT 1), Saboteur (1; DIG 1, FIGHT 1, "
            "disarms a tool), Scout (1; DRAW 2, FIGHT 2), Sniper Team (2; snipes a person), Thugs (3; DIG 1, FIGHT "
            "3), Sled Team (2; DRAW 2, FIGHT 1), Field Crew (4; DIG 2, HUNT 2, FIGHT 2), Tribe Family (3, 4 or 5; "
            "HUNT 0, FIGHT 0). Group Leaders (2 people): +2 to DRAW, DIG, HUNT or FIGHT of one person. Tools "
            "(need a carrier): Multitool +1 DIG/HUNT/FIGHT, Net +2 HUNT +1 FIGHT, Spear +1 HUNT +2 FIGHT, Pickaxe "
            "+1 DIG +2 FIGHT, Shovel +2 DIG +1 FIGHT, Wolf Pack +3 HUNT +2 FIGHT, Grenade +3 FIGHT. Medicine: "
            "Pills 1, Medkit 2. Junk does nothing. Starting deck: 4 Refugees, 3 Scavengers, a Brawler, a Spear "
            "and a Shovel."
        ),
        "Hiring costs": (
            "HIRE takes the top card of one mercenary pile into your discard pile, once per turn. Costs: Scavenger "
            "1 food; Brawler 2 food; Hunter 1 medicine; Saboteur 1 food + 1 medicine; Scout 2 food + 1 medicine; "
            "Group Leaders and Sniper Team 2 food + 2 medicine; Thugs 6 in any mix of food and medicine. Food "
            "comes from this turn's HUNT; medicine is paid by playing Pills (1) or Medkits (2) from your hand, one "
            "at a time. Overpayment is lost; an empty pile cannot be hired from."
        ),
        "Skirmish and tie-breaks": (
            "Fight strength = each kept person's FIGHT value, plus for each person one tool's FIGHT bonus and one "
            "Group Leaders' +2 (the best tools are assigned automatically; a tool or leader without a person adds "
            "nothing). The highest strength wins the top contested resource into its discard pile. A tie goes to "
            "the tied tribe with the most people among its kept cards; if that ties too nobody wins and the "
            "resource is shuffled into the junkyard. One contested resource leaves the pile every skirmish. Option "
            "gamebench_fight_sum counts strength as GameBench does: every FIGHT number on the kept cards added up, "
            "tools and Group Leaders included even without a person to carry them."
        ),
        "Snipers and saboteurs": (
            "After the reveal, in turn order from the Initiator, each tribe may use each of its revealed "
            "Saboteurs to discard one tool from an opponent's kept cards, and each Sniper Team to discard one "
            "card with people on it from an opponent's kept cards. A unit removed before its tribe's turn cannot "
            "act. Say 'skirmish_done' to stop. Tools are then reassigned for the best strength."
        ),
        "End of game": (
            "The game ends after the skirmish that takes the last contested resource (14 resources: 16 rounds). "
            "Each tribe counts the people on every card it owns (deck, discard pile and hand); the most people "
            "wins, and tied tribes share the win (with the tie-break option, most skirmishes won decides first). "
            "Options: GameBench's short game (5 contested resources, a skirmish every round from round 1) and a "
            "platform option that keeps fewer contested resources for a shorter game."
        ),
    },
)

"""Rules text of Are You the Traitor? for people and language-model players (written for this project)."""

from __future__ import annotations

from ..api import Rules

ROLES, KNOWLEDGE, STOP = "Roles and teams", "Who knows what", "Calling Stop"
OUTCOMES, TREASURE, WINNING = "Round outcomes", "Treasure and Magic Ring", "Winning"

RULES = Rules(
    summary=(
        "Are You the Traitor? is a hidden-role party game for 4 to 10 players, played in rounds. Each round "
        "everyone is secretly dealt a character: Keyholder, Guard, Traitor or Wizard. Wizards are shown openly, "
        "but each Wizard alone knows whether it is Good or Evil. Team Good (Good Wizards, the Keyholder, Guards) "
        "wants the Key handed to a Good Wizard or a Traitor caught; team Evil (Evil Wizards, Traitors) wants the "
        "Evil Wizard to grab the Keyholder or Good to make a wrong call. Players take turns in a fixed rotation "
        "to say something to the table, pass, or call Stop on another player (Traitors may never call Stop). "
        "The first Stop ends the round and decides which team wins it; every member of the winning team draws a "
        "secret treasure card. Characters are dealt afresh every round. After a round in which someone has 10 or "
        "more points, the player with the most points wins."
    ),
    topics={
        ROLES: (
            "Characters by number of players (one Keyholder always): 4 players: 1 Wizard, 1 Guard, 1 Traitor; "
            "5: 2 Wizards, 1 Guard, 1 Traitor; 6: 2 Wizards, 2 Guards, 1 Traitor; 7: 2 Wizards, 3 Guards, "
            "1 Traitor; 8: 2 Wizards, 3 Guards, 2 Traitors; 9: 2 Wizards, 4 Guards, 2 Traitors; 10: 3 Wizards, "
            "4 Guards, 2 Traitors. Each Wizard gets a secret alignment card: with 5 to 9 players one Good and one "
            "Evil; with 4 players the single Wizard gets Good or Evil at random; with 10 players the three Wizards "
            "get three of two Good and two Evil cards, the fourth set aside unseen. Teams: Good = Good Wizards, "
            "the Keyholder and the Guards; Evil = Evil Wizards and Traitors. Characters are shuffled and dealt "
            "again every round, so your team can change from round to round; points are your own. Goals: the "
            "Keyholder wants to give the Key to a Good Wizard; Good Wizards and Guards want to find a Traitor; the "
            "Evil Wizard wants to find the Keyholder; Traitors want to mislead and may not call Stop. Option "
            "gamebench_fixed_roles (GameBench's version) keeps the roles of the first round for the whole game; "
            "with 5 players they are: Player 1 Traitor, Player 2 Evil Wizard, Player 3 Good Wizard, Player 4 "
            "Keyholder, Player 5 Guard."
        ),
        KNOWLEDGE: (
            "Everyone knows their own character and who the Wizards are. Only a Wizard knows its own alignment "
            "(Good or Evil). With 6 or more players, the Guards and the Traitors are shown who the Keyholder is "
            "(the Wizards are not). With 8 or more players, the Traitors know each other. With 4 or 5 players "
            "nobody learns the Keyholder. Everything said at the table, and who calls Stop on whom, is public. "
            "When a round ends, every character and alignment of that round is revealed to all. Treasure cards "
            "are secret: everyone sees how many cards each player holds, never which ones."
        ),
        STOP: (
            "Talk runs in turns: in each tick every player, one at a time in rotation (the first speaker moves on "
            "by one seat every round), either says a short public message, passes, or calls Stop on another "
            "player. Good Wizards, Guards and Evil Wizards may call Stop on any other player. The Keyholder calls "
            "Stop only by handing the Key to a Wizard. Traitors can never call Stop. The first Stop ends the round "
            "at once; nobody else acts in that round. Platform rule: after a set number of full ticks without a "
            "Stop (4 by default, option ticks_before_handoff), the Keyholder must hand the Key to a Wizard."
        ),
        OUTCOMES: (
            "Keyholder gives the Key to a Good Wizard: Good wins; to an Evil Wizard: Evil wins. A Good Wizard or "
            "a Guard calls Stop on a Traitor: Good wins; on anyone else: Evil wins. An Evil Wizard calls Stop on "
            "the Keyholder: Evil wins; on anyone else: Good wins. Every member of the winning team then draws one "
            "treasure card."
        ),
        TREASURE: (
            "The treasure deck has 42 cards: Crown Jewels 5 points (2 cards), Platinum Pyramid 4 (5), Bag of Gold "
            "3 (12), Silver Goblet 2 (11), Chest of Copper 1 (5), Magic Ring 1 (5), Gilded Statue 0 (2). When it "
            "runs out, used cards are reshuffled into a new deck. Your cards are secret; the number of cards each "
            "player holds is public. Magic Ring: after the treasure of a round is drawn, if anyone holds treasure, "
            "every player is asked at once, holder or not, and may use one Magic Ring they hold: the ring is "
            "discarded and its holder takes one card at random from another player who holds treasure, but not "
            "from the player whose Stop call just won the round; rings used by several players take effect in the "
            "order they are used. Players without a ring simply go on (people on a clock, option ring_seconds, "
            "10 by default: when it runs out, whoever has not acted keeps their ring or goes on), so nobody learns "
            "who holds a ring unless it is used. A ring kept is worth 1 point."
        ),
        WINNING: (
            "Your score is the sum of your treasure cards. After the Magic Ring step of a round, if anyone has at "
            "least the target (10 points by default, option target_points), the game ends and the player with the "
            "most points wins; players tied for the most share the win. Platform rule: the game also ends after "
            "max_rounds rounds (20 by default), when the most points win the same way. Option gamebench_team_win "
            "(GameBench's version): instead, the whole team, in the last round, of the player with the most points "
            "wins (if leaders on both teams tie, both teams share). The winners share the result equally."
        ),
    },
)

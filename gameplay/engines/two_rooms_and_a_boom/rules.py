"""Two Rooms and a Boom rules text for people and language-model players (written for this project)."""

from __future__ import annotations

from ..api import Rules

TEAMS, ROOMS, SHARING = "Teams and cards", "Rooms and talking", "Sharing cards"
LEADERS, HOSTAGES, WINNING = "Leaders and usurping", "Hostage exchange", "Winning and the Gambler"

RULES = Rules(
    summary=(
        "Two Rooms and a Boom is a hidden-team party game for 6 to 30 players split between two rooms. Blue has the "
        "President, Red has the Bomber; you know only your own card. Talk only with the players in your room, and "
        "if you like share your card or just its colour with one of them to build trust. Each room has a Leader who, "
        "at the end of each of 3 rounds, sends hostages to the other room. After the last exchange, Red wins if the "
        "Bomber is in the President's room; otherwise Blue wins. Here talking is turn-based: each round every player "
        "has a small budget of talk actions (3, 2 and 1 by default), taken one at a time in turn."
    ),
    topics={
        TEAMS: (
            "The deck has one card per player: the President (Blue), the Bomber (Red), and equal numbers of Blue "
            "Team and Red Team cards; with an odd number of players the Gambler, who is on neither team, is added. "
            "Cards are dealt at random and kept secret: each player sees only their own card. The Blue team is the "
            "President and the Blue Team cards, the Red team the Bomber and the Red Team cards. Option "
            "gamebench_simplified (6 players) tells each player only their team colour, not whether they are the "
            "President or the Bomber."
        ),
        ROOMS: (
            "Players are split at random into Room A and Room B, as evenly as possible; who is in which room, and "
            "who leads each room, is known to everybody. During a round players act one at a time, alternating "
            "between the rooms. Each talk action uses one of your actions for the round: say something to your whole "
            "room, whisper to one player of your room (only the two of you see it), offer or accept a share, reveal "
            "your card to your room, nominate or vote for a Leader, or hand on the leadership. 'Done' gives up the "
            "rest of your actions this round. Nobody ever hears what is said in the other room; words may be lies."
        ),
        SHARING: (
            "Cards cannot lie, words can. Offer a player of your room a card share (each sees the other's whole "
            "card) or a colour share (each sees only the other's team colour: Blue, Red, or grey for the Gambler). "
            "The share happens only when the other player accepts it, on one of their own turns; then both see it "
            "at once. Others in the room see that the two shared, but not what. A public reveal shows your card to "
            "everyone in your room at that moment (not to the other room). Open offers lapse at the end of the "
            "round. Option gamebench_simplified has no sharing."
        ),
        LEADERS: (
            "Each room has one Leader. In round 1 a room starts without one: the first player of the room to "
            "nominate another player of the room makes them Leader (you cannot nominate yourself). A Leader can be "
            "replaced at any time by usurping: when more than half of the players in the room have voted for the "
            "same player, that player becomes Leader (votes are cast as talk actions and are cleared each round). "
            "A Leader may also abdicate by handing the leadership to another player of the room; the one who "
            "abdicated cannot become Leader again that round. If a room still has no Leader when its talking ends, "
            "one of its players is made Leader at random. Option gamebench_simplified draws one Leader per room at "
            "random for the whole game and has no nominating, usurping or abdicating."
        ),
        HOSTAGES: (
            "At the end of each round, each room's Leader picks hostages from their room, never themselves: 1 per "
            "round with 6-10 players; 2, then 1, then 1 with 11-21 players; 3, then 2, then 1 with 22 or more. The "
            "choice is announced to the Leader's own room. Then the two Leaders parley: each may send one message "
            "that only the other Leader sees (or pass). Then the hostages are exchanged at the same moment and "
            "everybody sees who moved; both rooms keep their sizes and their Leaders. Option gamebench_simplified "
            "sends 1 hostage per room per round and has no parley."
        ),
        WINNING: (
            "After the third exchange, the Gambler (only with an odd number of players) bets on which team won, Red "
            "or Blue, before the cards are revealed. Then all cards are shown. Red wins if the President and the "
            "Bomber are in the same room; otherwise Blue wins. There is no draw. The winning team's players, plus "
            "the Gambler if the bet was right, share the win equally."
        ),
    },
)

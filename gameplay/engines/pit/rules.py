"""Pit rules text for people and language-model players (written for this project in its own words)."""

from __future__ import annotations

from ..api import Rules

DEAL, OFFERS, CORNERING = "Deal and commodities", "Making and accepting offers", "Cornering"
BULL_BEAR, SCORING, VISIBILITY = "Bull and Bear", "Scoring and winning", "What others can see"
MARKET = "Market ticks"

RULES = Rules(
    summary=(
        "Pit is a commodity-trading race for 3 to 7 players. Each hand, every player is dealt 9 cards from a deck "
        "with 9 cards of each commodity in play (one commodity per player: Wheat 100, Barley 85, Corn 75, Rye 70, "
        "Oats 60, Hay 50, Flax 40 points). Everyone trades at once with anyone: offer 1 to 4 cards of ONE commodity "
        "by announcing only how many; another player takes the offer by giving the same number of cards of one "
        "commodity of their own, and the two swap blind. Collect all 9 cards of one commodity and call a corner to "
        "score its value; the hand then ends and a new one is dealt. The first player to reach 500 points wins. "
        "Here trading runs in market ticks: in each tick every player takes exactly one action (offer, accept, "
        "withdraw, pass or corner), in any order."
    ),
    topics={
        DEAL: (
            "A game with N players uses the N highest-valued commodities (3 players: Wheat, Barley, Corn). The "
            "deck holds 9 cards of each; it is shuffled and dealt out completely, 9 cards to each player (with the "
            "Bull and Bear option two players get 10). Hands are private; everybody knows how many cards each "
            "player holds, and which commodities are in the game. Option gamebench_deck uses GameBench's deck "
            "instead: Wheat 100, Barley 85, Corn 75 and Soyabeans 55, 9 of each, whatever the number of players, "
            "dealt one card at a time around the table (so hands can differ in size)."
        ),
        OFFERS: (
            "Offer: put 1 to 4 cards of one commodity on the table (with Bull and Bear, either may be added, or "
            "offered alone; they count toward the 4). Others only hear how many cards you offer. You have at most "
            "one standing offer; a new offer replaces it and you may withdraw it. Offers stay up across ticks until "
            "taken or withdrawn. Accept: answer another player's standing offer with the SAME number of cards of one "
            "commodity (any commodity, the same or not) from cards you are not offering yourself; the swap happens "
            "at once and both players' standing offers close. You cannot accept your own offer. Hand sizes never "
            "change. Option gamebench_unequal_trades lets the answer be any number of cards of one commodity, from "
            "1 up to all you hold, as in GameBench (hand sizes then change)."
        ),
        CORNERING: (
            "When you hold all 9 cards of a commodity you may call a corner (one of your actions): you score that "
            "commodity's value and the hand ends for everybody at once. Nobody is forced to call. Option "
            "gamebench_corner_at_6 makes 6 cards of a commodity a corner, as in GameBench."
        ),
        BULL_BEAR: (
            "Option bull_and_bear (the advanced game; off by default) adds the Bull and the Bear. The Bull is wild: "
            "8 of a commodity plus the Bull is a corner worth its value, and all 9 plus the Bull is a double corner "
            "worth twice the value. A player holding the Bear cannot corner. When a corner is called, the player "
            "holding the Bear loses 20 points and a player holding the Bull who did not corner loses 20 points. "
            "Option gamebench_bear_penalty plays GameBench's rule instead: the Bear does not stop a corner, the "
            "cornering player loses 20 if it holds the Bear, and nobody else is penalised."
        ),
        SCORING: (
            "Points add up over hands and can go negative. The game ends when a player reaches the target "
            "(500 by default) after a corner; that player wins. Platform rules, not in the printed game: a hand in "
            "which nobody corners within the tick cap (60 ticks by default) is re-dealt without scoring, and the "
            "game also ends after max_hands hands (10 by default, re-deals included), when the highest total "
            "wins; players tied for the highest total share the win. Option gamebench_share_scores scores the "
            "end as GameBench does: each player's share of all positive points."
        ),
        VISIBILITY: (
            "Only counts are public: an offer reads 'Player 2 offers 3 cards'. After a trade the two traders each "
            "learn what they received; everybody else only learns that the two traded and how many cards. A corner "
            "is announced with the cornering cards, and who held the Bull and the Bear is revealed with the "
            "penalties. Other hands stay hidden. Option gamebench_public_commodities names the commodity of every "
            "offer and trade publicly, as GameBench's offers do."
        ),
        MARKET: (
            "Trading runs in ticks. In each tick every player acts once, in any order; an action takes effect the "
            "moment it is made (an accepted offer swaps cards at once). When every player has acted, the next tick "
            "starts. Passing is always allowed. A corner ends the hand immediately, even mid-tick."
        ),
    },
)

"""Fruit Trading rules text for people and language-model players (written for this project in its own words)."""

from __future__ import annotations

from ..api import Rules

BASKET, OFFERS, ENDING, PAYOFF = "Your basket and valuations", "Making offers", "Accepting and walking away", "Payoff"

RULES = Rules(
    summary=(
        "Two players negotiate a fruit swap by message. You privately know your own fruit basket and how many "
        "points each fruit is worth to you. Each turn, write a message and propose a trade (what you give, what you "
        "get), accept the other's offer, walk away, or just talk. Your payoff is the value of what you receive minus "
        "the value of what you give, at your own valuations; no trade pays 0."
    ),
    topics={
        BASKET: (
            "The fruits are apple, banana, blueberry and kiwi. Each player holds a basket (how many of each fruit) "
            "and values each fruit at some points per unit. Both are private: the other player never sees yours, "
            "and you never see theirs, until the game is over, when both are revealed. The fixed scenario is the "
            "one of the OpenSpiel chat game: Player 1 holds 1 apple and 2 bananas and values apple 10, banana 5, "
            "blueberry 1, kiwi 3; Player 2 holds 5 blueberries and 3 kiwis and values apple 8, banana 7, "
            "blueberry 2, kiwi 2. In the random scenario each basket holds 0 to 5 of each fruit (at least one fruit "
            "in all) and each value is 1 to 10."
        ),
        OFFERS: (
            "An offer says what you give and what you get, e.g. give 1 banana, get 2 kiwis (id "
            "propose:banana1:kiwi2; several fruits are joined with +, as in propose:apple1+banana2:kiwi2, in the "
            "order apple, banana, blueberry, kiwi; an empty side is 'nothing', which makes a gift or a request). "
            "You may only give fruit you own; each side holds at most the game's maximum number of fruits (3 unless "
            "set otherwise); the same fruit cannot be on both sides; at least one side holds fruit. Your new offer "
            "replaces your earlier one. Every move carries a message; 'talk' is a message without a move. Messages "
            "and offers are seen by both players, and words may bluff: only offers are binding."
        ),
        ENDING: (
            "Accept takes the other player's standing offer: you give what it asks of you and get what it gives. You "
            "may accept only if you own everything it asks for. The trade happens at once and the game ends (one "
            "trade per game). Walk away ends the game with no trade. Each player has a fixed number of turns (3 "
            "unless set otherwise); when both have used them up without a trade, the game ends with no trade. With "
            "the OpenSpiel opening, Player 1's first message (offering 1 banana for 1 apple) is already sent and "
            "Player 2 moves first."
        ),
        PAYOFF: (
            "Your payoff is the points of the fruit you receive minus the points of the fruit you give, each at "
            "your own valuations; with no trade it is 0. For example, if you value banana 5 and kiwi 3 and give 1 "
            "banana for 2 kiwis, you gain 6 - 5 = +1. Both players can gain from a trade, because they value fruit "
            "differently. Payoffs are reported in the range -20 to 20 (a random scenario may exceed it); the "
            "platform's score shares this range between the two players."
        ),
    },
)

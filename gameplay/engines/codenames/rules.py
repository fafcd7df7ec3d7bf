"""Codenames' rules as offered to players and language models: a summary and the fact sheet's subtopics."""

from __future__ import annotations

from ..api import Rules

ROLES, CLUES, VALIDITY, GUESSING, TURN_END, WINNING = (
    "Roles", "Giving clues", "Clue validity", "Guessing", "Turn end", "Winning and the assassin")

RULES = Rules(
    summary=(
        "Two teams, Red and Blue, race to find their own secret agents among the codewords on the table (25 words "
        "in the standard game). Each team has one Spymaster, who sees which word belongs to whom, and Field "
        "Operatives, who do not. On its turn a team's Spymaster gives a clue: one word and a number. The "
        "Operatives then guess words one at a time; each guessed word's identity is shown at once. A word of their "
        "own team lets them go on (up to the number plus one guesses); an innocent bystander or an opposing agent "
        "ends the turn; the assassin loses the game for the team that picks it. The first team whose agents are "
        "all revealed wins."
    ),
    topics={
        ROLES: (
            "Seats alternate teams: odd player numbers (Player 1, 3, 5, ...) are Red, even ones Blue. Player 1 is "
            "Red's Spymaster and Player 2 Blue's; everyone else is a Field Operative. Both Spymasters see the whole "
            "key (which words are Red agents, Blue agents, innocent bystanders and the assassin). Operatives see "
            "only the words, the clues, and the identities of words already revealed. In each team turn one "
            "Operative of the team is the guesser; the role passes to the team's next Operative each turn. "
            "Operatives may talk in their team's chat (the other team never reads it); their Spymaster reads it but "
            "may not write: a Spymaster says nothing but clues."
        ),
        CLUES: (
            "A team's turn starts with its Spymaster's clue, typed as WORD,N (or WORD N): one word and a number "
            "from 0 to 9, or 'unlimited'. The number usually says how many of the team's words the clue is about. "
            "The Spymaster says nothing else. The team that starts is chosen by chance and holds 9 agents; the "
            "other team holds 8."
        ),
        VALIDITY: (
            "A clue must be a single word (no spaces), made of letters; a hyphen or apostrophe inside it is "
            "allowed. It may not be a word that is still visible on the table, nor contain one, nor be part of one "
            "(HORSE is refused while HORSESHOE is uncovered), nor be a form of one: words are also compared without "
            "the endings -s, -es, -ed, -ing and -er. Once a word has been revealed, clues may use it. Clues must be "
            "about meaning, not spelling, letters or positions. This game refuses an invalid clue and asks again, "
            "unless the invalid_clue_penalty option is on: then the clue ends the turn and the opposing Spymaster "
            "covers one of their own agents. Option gamebench_unchecked_clues reads clues as GameBench did and "
            "checks no rule: a text without exactly one comma is the clue 'None' for 1; otherwise the word is "
            "taken as written and the number must be a whole number from 0 (0: no limit; no 'unlimited')."
        ),
        GUESSING: (
            "After the clue, the team's guesser picks unrevealed words one at a time and each one's identity is "
            "revealed. The team must guess at least once. With clue number N it may guess at most N+1 times; with "
            "0 or 'unlimited' there is no limit. Guessing one of the team's own agents lets it guess again or stop."
        ),
        TURN_END: (
            "The turn ends when the guesser chooses to stop (allowed after the first guess), when the guesses run "
            "out, when an innocent bystander is picked (remaining guesses are lost), or when an agent of the other "
            "team is picked (it counts for that team). Then the other team's Spymaster gives a clue. Option "
            "gamebench_end_turn_anytime lets the guesser stop before guessing, as GameBench does; a platform cap of "
            "max_turns team turns then ends the game, won by the team with fewer agents left (a tie is shared)."
        ),
        WINNING: (
            "A team wins the moment all its agents are revealed, even when the other team revealed the last one. "
            "Picking the assassin ends the game at once: the team that picked it loses. The winning team's players "
            "share the win. Option gamebench_scores scores as GameBench does: each team gets its revealed agents, "
            "plus 3 for the winner, and 0 for a team that picked the assassin; the scores are then shared out in "
            "proportion."
        ),
    },
)

"""Who is Spy rules text for people and language-model players (written for this project in its own words)."""

from __future__ import annotations

from ..api import Rules

WORDS, DESCRIBING, VOTING = "Words and camps", "Describing", "Voting and ties"
ENDING, INFERRING = "Elimination and winning", "Inferring your own role"

RULES = Rules(
    summary=(
        "Who is Spy is a word game of hidden roles for 4 to 10 players. Two similar words are chosen (such as "
        "'robin' and 'finch'). Most players, the villagers, all get one of them; the few spies (one by "
        "default) get the other. Nobody is told which group they belong to: you only see your own word and how many "
        "spies there are. Every round, the players speak one at a time in a freshly shuffled order, each giving a "
        "short public description of their own word without saying it; then everyone votes in secret to put one "
        "other player out. Villagers win once every spy is out; the spies win when they are at least as many as "
        "the villagers still in (with one spy: when only two players are left), or when the round limit is "
        "reached."
    ),
    topics={
        WORDS: (
            "A pair of related words is drawn from the game's list (settings can give a list of their own and fix "
            "the pair). One word of the pair, chosen at random, is the spy word; the other is the villagers' word. "
            "The spy word goes to as many players as there are spies (setting 'spies', 1 by default; there must be "
            "fewer spies than villagers) and the villagers' word to everybody else, shuffled over the seats "
            "(settings spy_word and spy_seat can fix which word is the spy's and one spy's seat, for experiments). "
            "Players are called Player 1 to Player N (setting seat_names can name them otherwise). Each player sees "
            "only their own word. Everybody knows the number of players "
            "and the number of spies. Words of players who are out stay hidden; when the game ends, both words "
            "and the spies are revealed to everyone."
        ),
        DESCRIBING: (
            "At the start of each round a new random speaking order is drawn and announced. Each speaker in turn "
            "gives one public sentence about their word, at most 10 words long (setting max_description_words). "
            "The sentence must not contain your own word in any letter case, not even inside a longer word "
            "(with the word 'car', 'scary' is refused too), and it must not be empty. It also must not repeat a "
            "description already given in this game (compared ignoring case, spacing and punctuation). A "
            "repeated description is refused and you must say something new (setting repeat_rule 'strike' "
            "accepts it but strikes it: it uses up your turn and the table sees you only repeated an earlier one; "
            "'allow' lets repeats count normally). Good descriptions show the others you share "
            "their word without giving it away to a player who holds the other word. Time limit (setting "
            "describe_seconds, off by default): with a limit, a speaker may also pass and give no description, and a "
            "person whose time runs out passes; the table sees that the speaker gave no description. A setting for "
            "experiments on bias (off by default) can make the descriptions of some or all players read '...', "
            "whatever they write."
        ),
        VOTING: (
            "After everyone due to speak has spoken, the voters vote at the same time, each for one other player "
            "among the candidates; you can never vote for yourself. The order of your vote options is shuffled "
            "for each voter. Votes are secret: the others only learn that you have voted, and the result names "
            "who went out or who tied, not who voted for whom (setting show_votes makes every vote public). The "
            "single player with the most votes is out. If everyone still in is tied, nobody goes out and a new "
            "full round follows. If only some players are tied, the next round is a run-off: only the tied "
            "players describe and may be voted for, and only the others vote. A tie again right after that "
            "(a second partial tie in a row) sends the game back to a normal round with everyone. Every round, "
            "run-offs and tied rounds included, counts towards the round limit. Time limit (setting vote_seconds, off "
            "by default): with a limit, a voter may also abstain, a vote for nobody that is secret like any vote, and "
            "a person whose time runs out abstains. A vote for nobody counts for no candidate: if every voter "
            "abstains, all candidates are tied."
        ),
        ENDING: (
            "When a spy goes out and no spy is left, the villagers win at once. When a villager goes out and the "
            "spies still in are at least as many as the villagers still in, the spies win. Otherwise the game "
            "goes on with the players still in; players who are out no longer speak or vote. If the round limit "
            "(7 rounds by default, setting max_rounds) passes without a decision, the spies win because they "
            "survived. Every player of the winning side shares the win, including those who went out. Variant "
            "spy_guess (off by default): a speaker may, instead of describing, claim to be a spy and name the "
            "villagers' word (exactly that word; letter case, punctuation and hyphens aside). If that speaker "
            "really is a spy and the word is right, the spies win at once; otherwise (a wrong word, more than the "
            "word, or a villager who claimed) that speaker is out. The guessed word is shown only to the guesser "
            "until the end; everyone learns whether the claim was right."
        ),
        INFERRING: (
            "You are never told whether you are a villager or a spy. Compare the descriptions with your word: if "
            "most of them fit a neighbouring word better than yours, you probably hold the spy word; then "
            "describe vaguely so that your sentence also fits the other word, and vote for a villager. If most "
            "fit your word, you are probably a villager: look for the description that fits only loosely. "
            "Spies never learn who the other spies are either."
        ),
    },
)

"""The rules as people and language-model players read them (the sheet's summary and its four subtopics)."""

from gameplay.engines.api import Rules

STYLES = ("logos", "ethos", "pathos", "mixed")

STYLE_MEANINGS = (
    ("logos", "reason: logic, evidence, numbers and cause and effect"),
    ("ethos", "credibility: authority, experience, trustworthy sources and fairness"),
    ("pathos", "emotion: feelings, stories and values the audience cares about"),
)

RULES = Rules(
    summary=(
        "A two-sided debate on a given statement: one side argues for it, the other against. Speakers alternate "
        "for a fixed number of turns, each making one argument (logos = logic, ethos = credibility, pathos = "
        "emotion). A judge then decides who argued better; the winner scores 1."
    ),
    topics={
        "Topic and sides": (
            "The statement is drawn from a list of 20 (or fixed by the match's options). The seat 'For' argues "
            "that the statement is true, the seat 'Against' that it is false. Topic, sides and every argument "
            "are public."
        ),
        "Argument styles": (
            "Each argument declares its style, which everyone sees: logos (reason, evidence, numbers), ethos "
            "(credibility, authority, experience), pathos (emotion, stories, values) or mixed. The style is a "
            "declaration, not checked against the text."
        ),
        "Turn order and length": (
            "The sides alternate, one argument per turn, each side the same number of times (rounds_per_side, "
            "default 2). By default 'For' opens; in OpenSpiel order 'Against' opens. An argument has at most "
            "max_words words (default 150); a longer one is refused, not cut."
        ),
        "Judging": (
            "After the last argument a judge reads the whole debate and gives a verdict. Single judging (the "
            "default): one side wins (1 point, the other 0) or it is a draw (0.5 each). OpenSpiel judging: each "
            "side is judged on its own, so both, one or neither may win. When no judge model is available a "
            "fixed rule decides: each argument earns a point for giving a reason (because, since, so, "
            "therefore...), a point for an example or a number, and a point for answering the other side "
            "(reusing one of its words of five letters or more); the higher total wins, equal totals are a draw "
            "(OpenSpiel judging: both win if equal and above zero, neither if both are zero)."
        ),
    },
)

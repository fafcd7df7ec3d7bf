"""The statements a debate is about: agree/disagree statements anyone can argue without special knowledge.

Topic 0 is the statement of the fixed OpenSpiel configuration (the seed's breakfast topic); the others are our own.
"""

TOPICS: tuple[str, ...] = (
    "Breakfast is the most important meal of the day.",
    "Homework should be abolished in primary schools.",
    "Cities should make public transport free for everyone.",
    "Working four days a week would make people more productive.",
    "Everyone should learn to cook before leaving school.",
    "Paper books are better than e-books.",
    "Video games do more good than harm to children.",
    "Zoos should no longer keep large wild animals.",
    "Mobile phones should be banned in classrooms.",
    "It is better to rent a home than to buy one.",
    "Space exploration is worth its cost.",
    "Tourists should pay a fee to visit crowded historic towns.",
    "Learning a musical instrument should be compulsory at school.",
    "Remote work is better than working in an office.",
    "Sugary drinks should carry a special tax.",
    "Team sports teach more than individual sports.",
    "Everyone should do a year of community service after school.",
    "Handwriting still matters in the age of keyboards.",
    "Small towns offer a better life than big cities.",
    "Voting should be compulsory in national elections.",
)

"""The base game's cards: what each one counts for, what it costs, and how many the box holds.

Values follow the fact sheet (/work/shared/reference/rules/arctic_scavengers.md, section 1). Where the sources
disagree the sheet's majority reading is used: Shovel gives +2 DIG / +1 FIGHT, and the six Tribe Families are two
each of 3, 4 and 5 people.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DRAW, DIG, HUNT, FIGHT, MEDICINE = "DRAW", "DIG", "HUNT", "FIGHT", "MEDICINE"
# The actions a person's base value (or a tool's modifier) can serve; MEDICINE cards act alone.
BUILT_ACTIONS = (DRAW, DIG, HUNT)

PERSON, TOOL, LEADER, MEDIC, JUNK = "person", "tool", "leader", "medicine", "junk"


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    kind: str
    people: int = 0
    base: dict = field(default_factory=dict)  # action -> base value a person brings (0 is a real base)
    mods: dict = field(default_factory=dict)  # action -> bonus a tool or leader adds through a carrier
    medicine: int = 0
    food_cost: int = 0
    med_cost: int = 0
    mixed_cost: int = 0  # Thugs: this many in any mix of food and medicine
    special: str = ""  # "sabotage" or "snipe": usable once per skirmish

    def can(self, action: str) -> bool:
        return action in self.base

    def boosts(self, action: str) -> int:
        return self.mods.get(action, 0)


def _person(key, name, people, base, **kw) -> Card:
    return Card(key, name, PERSON, people=people, base=base, **kw)


def _tool(key, name, mods) -> Card:
    return Card(key, name, TOOL, mods=mods)


CARDS: dict[str, Card] = {c.key: c for c in (
    _person("refugee", "Refugee", 1, {DIG: 0, HUNT: 0}),
    _person("scavenger", "Scavenger", 1, {DRAW: 1, DIG: 1, HUNT: 1, FIGHT: 1}, food_cost=1),
    _person("brawler", "Brawler", 1, {DIG: 1, FIGHT: 2}, food_cost=2),
    _person("hunter", "Hunter", 1, {HUNT: 2, FIGHT: 1}, med_cost=1),
    _person("saboteur", "Saboteur", 1, {DIG: 1, FIGHT: 1}, food_cost=1, med_cost=1, special="sabotage"),
    _person("scout", "Scout", 1, {DRAW: 2, FIGHT: 2}, food_cost=2, med_cost=1),
    Card("group_leaders", "Group Leaders", LEADER, people=2, mods={DRAW: 2, DIG: 2, HUNT: 2, FIGHT: 2},
         food_cost=2, med_cost=2),
    _person("sniper_team", "Sniper Team", 2, {}, food_cost=2, med_cost=2, special="snipe"),
    _person("thugs", "Thugs", 3, {DIG: 1, FIGHT: 3}, mixed_cost=6),
    Card("junk", "Junk", JUNK),
    _tool("multitool", "Multitool", {DIG: 1, HUNT: 1, FIGHT: 1}),
    _tool("net", "Net", {HUNT: 2, FIGHT: 1}),
    _tool("spear", "Spear", {HUNT: 1, FIGHT: 2}),
    _tool("pickaxe", "Pickaxe", {DIG: 1, FIGHT: 2}),
    _tool("shovel", "Shovel", {DIG: 2, FIGHT: 1}),
    Card("medkit", "Medkit", MEDIC, medicine=2),
    Card("pills", "Pills", MEDIC, medicine=1),
    _tool("wolf_pack", "Wolf Pack", {HUNT: 3, FIGHT: 2}),
    _tool("grenade", "Grenade", {FIGHT: 3}),
    _person("sled_team", "Sled Team", 2, {DRAW: 2, FIGHT: 1}),
    _person("field_crew", "Field Crew", 4, {DIG: 2, HUNT: 2, FIGHT: 2}),
    _person("tribe_family_3", "Tribe Family (3)", 3, {HUNT: 0, FIGHT: 0}),
    _person("tribe_family_4", "Tribe Family (4)", 4, {HUNT: 0, FIGHT: 0}),
    _person("tribe_family_5", "Tribe Family (5)", 5, {HUNT: 0, FIGHT: 0}),
)}

# Display order of the eight mercenary piles (cheapest first).
MERCENARIES = ("scavenger", "brawler", "hunter", "saboteur", "scout", "group_leaders", "sniper_team", "thugs")
MERCENARY_BOX = {"scavenger": 20, "brawler": 10, "hunter": 8, "saboteur": 8, "scout": 8, "group_leaders": 5,
                 "sniper_team": 5, "thugs": 5}
JUNKYARD_BOX = {"junk": 7, "multitool": 4, "net": 4, "spear": 6, "pickaxe": 4, "shovel": 6, "medkit": 6,
                "pills": 9}
CONTESTED_BOX = {"wolf_pack": 2, "grenade": 2, "sled_team": 2, "field_crew": 2, "tribe_family_3": 2,
                 "tribe_family_4": 2, "tribe_family_5": 2}
# GameBench's pile: one of each contested card, its Tribe Family worth 5 people.
GAMEBENCH_CONTESTED = ("wolf_pack", "grenade", "sled_team", "field_crew", "tribe_family_5")
STARTING_DECK = ("refugee",) * 4 + ("scavenger",) * 3 + ("brawler", "spear", "shovel")
HAND_SIZE = 5

# Stable order for showing a hand or a pile (the table order above).
ORDER = {key: i for i, key in enumerate(CARDS)}


def name(key: str) -> str:
    return CARDS[key].name


def sort_keys(keys) -> list[str]:
    return sorted(keys, key=ORDER.__getitem__)


def names(keys) -> str:
    """"Brawler, Spear, 2 Refugee"-style wording of a multiset of cards (table order)."""
    counts: dict[str, int] = {}
    for key in sort_keys(keys):
        counts[key] = counts.get(key, 0) + 1
    if not counts:
        return "nothing"
    return ", ".join(name(k) if n == 1 else f"{n}x {name(k)}" for k, n in counts.items())


def people(keys) -> int:
    return sum(CARDS[k].people for k in keys)


def action_total(action: str, keys) -> int:
    """The value of a group of cards played together for DRAW/DIG/HUNT/FIGHT.

    Persons that have the action bring their base value; every tool and every Group Leaders needs a carrier of
    its own among them (one tool and one leader per person at most), so the strongest modifiers go first. A tool
    or leader without a carrier adds nothing.
    """
    carriers = [k for k in keys if CARDS[k].kind == PERSON and CARDS[k].can(action)]
    total = sum(CARDS[k].base[action] for k in carriers)
    tools = sorted((CARDS[k].boosts(action) for k in keys if CARDS[k].kind == TOOL), reverse=True)
    leaders = [CARDS[k].boosts(action) for k in keys if CARDS[k].kind == LEADER]
    total += sum(tools[:len(carriers)]) + sum(leaders[:len(carriers)])
    return total


def fight_strength(keys, carriers_needed: bool = True) -> int:
    """Skirmish strength; ``carriers_needed=False`` is GameBench's count: every FIGHT number on the cards (persons'
    values, every tool's and Group Leaders' bonus) added up, with no carrier and no one-tool limit."""
    if not carriers_needed:
        return sum(CARDS[k].base.get(FIGHT, 0) + CARDS[k].boosts(FIGHT) for k in keys)
    return action_total(FIGHT, keys)


def hire_cost_text(key: str) -> str:
    card = CARDS[key]
    if card.mixed_cost:
        return f"{card.mixed_cost} in any mix of food and medicine"
    parts = [f"{card.food_cost} food"] if card.food_cost else []
    if card.med_cost:
        parts.append(f"{card.med_cost} medicine")
    return " + ".join(parts)


def describe(key: str) -> str:
    """A card's values in a few words, e.g. "1 person · DIG 1 · FIGHT 2" or "+1 HUNT +2 FIGHT"."""
    card = CARDS[key]
    parts = []
    if card.people:
        parts.append(f"{card.people} {'person' if card.people == 1 else 'people'}")
    parts += [f"{action} {value}" for action, value in card.base.items()]
    if card.mods:
        parts.append(" ".join(f"+{value} {action}" for action, value in card.mods.items()))
    if card.medicine:
        parts.append(f"MEDICINE {card.medicine}")
    if card.special:
        parts.append("disarms a tool" if card.special == "sabotage" else "snipes a person")
    return " · ".join(parts) or "no use"

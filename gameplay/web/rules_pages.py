"""A game's rules for people: one template per game (its presenter's ``rules_template``), shown two ways.

The template extends ``rules_layout``: the rules page renders it whole (RULES_PAGE), a match page's help panel only
its brief and how to win, with a link to the page (RULES_PANEL). One text, so the panel never says something the page
does not. Each template names, in its glossary of actions (``<dt data-action="...">``), the words every action label
of its game starts with; tests/gameplay/test_rules_pages.py checks them against the engine's labels.
"""

from __future__ import annotations

from gameplay.boards import presenter_for
from gameplay.engines.registry import game_class
from gameplay.engines.spec import GameSpec

RULES_PAGE = "gameplay/rules/page.html"
RULES_PANEL = "gameplay/rules/panel.html"


def rules_template(game_id: str) -> str:
    """The game's rules template, or "" when it has none."""
    return presenter_for(game_id).rules_template


def rules_context(spec: GameSpec, layout: str) -> dict:
    """What a rules template needs, for the whole page or for the panel."""
    seats = f"{spec.min_seats}" if spec.min_seats == spec.max_seats else f"{spec.min_seats} to {spec.max_seats}"
    return {
        "rules_template": rules_template(spec.id),
        "rules_layout": layout,
        "rules_game": spec,
        "rules_seats": seats,
    }


def panel_context(game_id: str) -> dict:
    """The match page's help panel: empty (no panel) for a game without rules."""
    if not rules_template(game_id):
        return {}
    return rules_context(game_class(game_id).spec, RULES_PANEL)


def games_with_rules(specs: list[GameSpec]) -> set[str]:
    return {spec.id for spec in specs if rules_template(spec.id)}

"""Board presenters keyed by game id: one line per game. A game without one is shown by the generic presenter."""

from __future__ import annotations

from gameplay.boards.air_land_sea import AirLandSeaBoard
from gameplay.boards.are_you_the_traitor import TraitorBoard
from gameplay.boards.base import BoardPresenter, GenericPresenter
from gameplay.boards.gnomes import GnomesBoard
from gameplay.boards.hive import HiveBoard
from gameplay.boards.sea_battle import SeaBattleBoard
from gameplay.boards.two_rooms_and_a_boom import TwoRoomsBoard
from gameplay.boards.who_is_spy import WhoIsSpyBoard


def _simple(game_id: str, *, css: tuple[str, ...] = (), js: tuple[str, ...] = (), **extra) -> BoardPresenter:
    """A presenter that is only a template and its assets (the facts go to the template as they are)."""
    attrs = {"template": f"games/{game_id}/board.html", "rules_template": f"games/{game_id}/rules.html", "css": css,
             "js": js, **extra}
    return type(f"{game_id.title().replace('_', '')}Board", (BoardPresenter,), attrs)()


PRESENTERS: dict[str, BoardPresenter] = {
    "santorini": _simple("santorini"),
    "hive": HiveBoard(),
    "gnomes": GnomesBoard(),
    "atari_boxing": _simple("atari_boxing", live_template="games/atari_boxing/live.html"),
    "air_land_sea": AirLandSeaBoard(),
    "arctic_scavengers": _simple("arctic_scavengers", css=("css/arctic_scavengers.css",)),
    "pit": _simple("pit"),
    "sea_battle": SeaBattleBoard(),
    "codenames": _simple("codenames", css=("css/codenames.css",), js=("js/codenames.js",)),
    "who_is_spy": WhoIsSpyBoard(),
    "are_you_the_traitor": TraitorBoard(),
    "two_rooms_and_a_boom": TwoRoomsBoard(),
    "meeting_scheduling": _simple("meeting_scheduling", css=("css/meeting_scheduling.css",)),
    "fruit_trading": _simple("fruit_trading", css=("css/fruit_trading.css",), js=("js/fruit_trading.js",)),
    "debate": _simple("debate"),
}

GENERIC = GenericPresenter()


def presenter_for(game_id: str) -> BoardPresenter:
    """The game's board presenter, or the generic one."""
    return PRESENTERS.get(game_id, GENERIC)

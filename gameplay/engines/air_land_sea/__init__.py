"""Air, Land & Sea (Arcane Wonders, 2020 revised rules), plus GameBench's deviations as options."""

from .game import AirLandSeaGame
from .state import AirLandSeaState

__all__ = ["AirLandSeaGame", "AirLandSeaState"]

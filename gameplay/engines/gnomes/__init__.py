"""Gnomes at Night (seeds/003): a cooperative shared-control maze with two hidden wall layouts."""

from .game import GnomesGame, GnomesState

__all__ = ["GnomesGame", "GnomesState"]

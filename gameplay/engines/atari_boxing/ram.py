"""What the Boxing cartridge keeps in RAM, decoded (addresses from the AtariARI labels, checked by hand).

Scores and the clock are binary-coded decimal: byte 0x27 is 27 points, not 39. A knockout shows as a score
byte of 0xC0 (the cartridge's "KO"), worth 100 points. The clock keeps minutes in the high nibble of byte 16
and BCD seconds in byte 17.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PLAYER_X, ENEMY_X, PLAYER_Y, ENEMY_Y = 32, 33, 34, 35
PLAYER_SCORE, ENEMY_SCORE = 18, 19
CLOCK_MINUTES, CLOCK_SECONDS = 16, 17
KNOCKOUT_POINTS = 100


def bcd(byte: int) -> int:
    """A two-digit binary-coded decimal byte as a number (0x27 -> 27)."""
    high, low = byte >> 4, byte & 0x0F
    if high > 9 or low > 9:
        raise ValueError(f"{byte:#04x} is not a BCD byte")
    return high * 10 + low


def score(byte: int) -> int:
    """A score byte: BCD points, or 100 for the knockout marker (a tens digit past 9, shown as "KO")."""
    if byte >> 4 > 9:
        return KNOCKOUT_POINTS
    return bcd(byte)


def clock_seconds(ram: Sequence[int]) -> int:
    """Seconds left in the bout."""
    return (ram[CLOCK_MINUTES] >> 4) * 60 + bcd(ram[CLOCK_SECONDS])


@dataclass(frozen=True)
class Ringside:
    """The decoded facts of one frame, from player 1's (white's) point of view."""

    white: tuple[int, int]  # (x, y) of the white boxer, player 1
    black: tuple[int, int]
    scores: tuple[int, int]  # white's, black's
    seconds_left: int

    @classmethod
    def from_ram(cls, ram: Sequence[int]) -> Ringside:
        return cls(
            white=(int(ram[PLAYER_X]), int(ram[PLAYER_Y])),
            black=(int(ram[ENEMY_X]), int(ram[ENEMY_Y])),
            scores=(score(int(ram[PLAYER_SCORE])), score(int(ram[ENEMY_SCORE]))),
            seconds_left=clock_seconds(ram),
        )

    @property
    def knockout(self) -> bool:
        return KNOCKOUT_POINTS in self.scores

    def to_json(self) -> dict:
        return {"white": list(self.white), "black": list(self.black), "scores": list(self.scores),
                "seconds_left": self.seconds_left}

    @classmethod
    def from_json(cls, data) -> Ringside:
        return cls(tuple(data["white"]), tuple(data["black"]), tuple(data["scores"]), int(data["seconds_left"]))

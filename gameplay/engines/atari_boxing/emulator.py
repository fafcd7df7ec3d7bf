"""The Atari 2600 emulator behind Boxing: the Arcade Learning Environment in its two-player build.

``multi_agent_ale_py`` (the backend PettingZoo's Atari games use) takes one action per player; ``ale_py``'s
wheel bundles the Boxing ROM. Both are GPL-2.0 packages installed from PyPI and used as libraries; this is
the only module that imports them.

The engine never keeps an emulator between calls: a state holds ALE's own serialised snapshot (about 1 KB,
``cloneState``/``encodeState``), and each call restores it into an emulator borrowed from a per-thread pool, so
states stay plain data, JSON round trips are exact and two states in one thread can never disturb each other.
The emulator is deterministic: the same snapshot and actions give the same frames (repeat_action_probability is
0, and the console has no other source of chance).
"""

from __future__ import annotations

import base64
import threading
import zlib
from dataclasses import dataclass
from functools import cache

import numpy as np
from ale_py import roms
from multi_agent_ale_py import ALEInterface

ALEInterface.setLoggerMode("error")  # the console otherwise prints a banner for every ROM it loads

TWO_PLAYER_MODE = 2
SCREEN_WIDTH, SCREEN_HEIGHT = 160, 210
FRAMES_PER_SECOND = 60

_local = threading.local()


def _new_console() -> ALEInterface:
    console = ALEInterface()
    console.setFloat(b"repeat_action_probability", 0.0)
    console.loadROM(str(roms.get_rom_path("boxing")).encode())
    console.setMode(TWO_PLAYER_MODE)
    console.reset_game()
    return console


def _console() -> ALEInterface:
    """This thread's emulator (loading the ROM costs ~0.1 s, so each thread keeps one)."""
    console = getattr(_local, "console", None)
    if console is None:
        console = _local.console = _new_console()
    return console


def _snapshot(console: ALEInterface) -> bytes:
    handle = console.cloneState()
    try:
        return bytes(console.encodeState(handle))
    finally:
        console.deleteState(handle)


def _restore(console: ALEInterface, snapshot: bytes) -> None:
    handle = console.decodeState(np.frombuffer(snapshot, dtype=np.uint8).copy())
    try:
        console.restoreState(handle)
    finally:
        console.deleteState(handle)


@dataclass(frozen=True)
class Step:
    """What running the console for some frames produced."""

    snapshot: bytes
    ram: bytes
    screen: bytes  # the last frame's palette indices, row by row
    frames: int  # frames actually run (fewer when the bout ended on the way)
    over: bool
    screens: tuple[bytes, ...] = ()  # every frame's screen, when asked for


@cache
def opening() -> Step:
    """The console just after the cartridge starts a two-player bout (the same for every match)."""
    console = _new_console()
    return Step(_snapshot(console), bytes(console.getRAM()), bytes(console.getScreen()), 0, False)


def run(snapshot: bytes, white: int, black: int, frames: int, *, keep_screens: bool = False) -> Step:
    """Restore ``snapshot`` and hold the two joysticks (ALE action numbers) for up to ``frames`` frames."""
    console = _console()
    _restore(console, snapshot)
    screens = []
    played = 0
    while played < frames and not console.game_over():
        console.act([white, black])
        played += 1
        if keep_screens:
            screens.append(bytes(console.getScreen()))
    screen = screens[-1] if screens else bytes(console.getScreen())
    return Step(_snapshot(console), bytes(console.getRAM()), screen, played, bool(console.game_over()),
                tuple(screens))


def pack_screen(screen: bytes) -> str:
    """A frame as compact text for JSON (zlib, then base64): about 1-2 KB instead of 33,600 bytes. zlib's fastest
    level: every stored state and observation packs the screen (a live bout commits a dozen states a second), and
    level 6 took 1.1 ms a frame where level 1 takes 0.17 ms for 1,061 bytes instead of 600."""
    return base64.b64encode(zlib.compress(screen, 1)).decode("ascii")


def pack_bytes(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unpack_bytes(text: str) -> bytes:
    return base64.b64decode(text.encode("ascii"), validate=True)


def unpack_screen(text: str) -> bytes:
    screen = zlib.decompress(base64.b64decode(text))
    if len(screen) != SCREEN_WIDTH * SCREEN_HEIGHT:
        raise ValueError("not a packed Boxing frame")
    return screen


@cache
def palette() -> dict[int, tuple[int, int, int]]:
    """RGB of each colour index the cartridge draws, read from the emulator's own NTSC conversion."""
    console = _new_console()
    colours: dict[int, tuple[int, int, int]] = {}
    for frame in range(240):
        console.act([frame % 18, (frame * 7) % 18])
        indices = console.getScreen()
        rgb = console.getScreenRGB().reshape(-1, 3)
        for index in np.unique(indices):
            if int(index) not in colours:
                position = int(np.argmax(indices == index))
                colours[int(index)] = tuple(int(c) for c in rgb[position])
    return colours

"""Live play of realtime games (``GameSpec.realtime``): the clock that plays decision points whatever the seats do,
the inputs people hold, and the frames streamed to every socket of the match."""

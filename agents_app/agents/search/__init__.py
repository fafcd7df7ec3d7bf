"""Search agents: information-set MCTS at five strength levels (``agent.py``), for every game that can be sampled."""

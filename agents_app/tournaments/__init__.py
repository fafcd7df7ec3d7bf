"""Tournaments: agents play each other over a schedule of seeded matches, on workers (tasks), resumable; their
pages read ``selectors`` and the ratings read the finished matches."""

"""Pure-Python game engines (no Django, Channels or Celery imports here)."""

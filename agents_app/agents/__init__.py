"""Pure agents: no Django, Channels or Celery imports here."""

"""Project wiring: settings, root URLs, the ASGI app and websocket routes, the Celery app, the security headers and
the log filter that redacts secrets.
"""

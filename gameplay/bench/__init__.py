"""Load benchmarks that drive a running server from outside, as its users do (issue 14).

The server is a black box reached over HTTP and websockets; only match creation and the final audit use the
shared database, as ``manage.py`` commands run with the server's DATABASE_URL.
"""

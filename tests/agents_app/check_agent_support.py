"""Shared helper of the check_agent command's tests (test_check_agent.py, test_measured_preflight.py): the command run
as manage.py runs it, in the test's process."""

from __future__ import annotations

import io

from django.core.management import call_command
from django.core.management.base import CommandError


def run(*args: str) -> tuple[int, str, str]:
    """The command as manage.py runs it (exit code included), in this process so it sees the test database."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    try:
        call_command("check_agent", *args, stdout=out, stderr=err)
    except CommandError as error:
        code, err = error.returncode, io.StringIO(err.getvalue() + str(error))
    return code, out.getvalue(), err.getvalue()

"""On the embedded default (a SQLite file), two simultaneous submits for the same version must queue:
one applies, the other is rejected as stale, and neither fails with "database is locked"."""

import json
import subprocess
import sys

from tests.support.live_server import ROOT, migrate, server_env

RACE = r"""
import json, threading
import django
django.setup()
from django.db import connection
from gameplay.writes import services
outcomes = []
for r in range(8):
    match = services.create_match("santorini", [services.SeatController("human")] * 2, seed=r)
    barrier, results = threading.Barrier(2), []
    def submit(action):
        barrier.wait()
        try:
            services.submit_action(match.pk, 0, action, expected_version=0)
            results.append("applied")
        except services.ActionRejected:
            results.append("rejected")
        except Exception as err:
            results.append(type(err).__name__)
        finally:
            connection.close()
    threads = [threading.Thread(target=submit, args=(a,)) for a in ("place:a1", "place:b2")]
    for t in threads: t.start()
    for t in threads: t.join()
    match.refresh_from_db()
    actions = match.events.filter(kind="action").count()
    outcomes.append({"results": sorted(results), "version": match.version, "actions": actions})
print(json.dumps(outcomes))
"""


def test_simultaneous_submits_on_sqlite_file_apply_exactly_one(tmp_path):
    env = server_env(f"sqlite:///{tmp_path / 'race.sqlite3'}")
    migrate(env)
    out = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    outcomes = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(outcomes) == 8
    for outcome in outcomes:
        assert outcome == {"results": ["applied", "rejected"], "version": 1, "actions": 1}

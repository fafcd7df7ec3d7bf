"""The match layer stands on its own: nothing it imports, however indirectly, comes from agents_app or rating_app.

Agents and ratings build on gameplay (its models, services and signals), never the other way round: agent turns
arrive through ``gameplay.signals.agent_turn_due``, agent names through ``gameplay.reads.agent_directory``, and the
transcript pages are agents_app's own views that gameplay's templates reach by URL name only.

The check is static: every project module reachable from the roots below is parsed with ``ast`` and every
import in it is followed — at module level and inside functions (late imports), relative ones, ``from package
import submodule`` and ``importlib.import_module("literal")`` alike — whether or not the code path ever runs.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

import pytest

from tests.import_graph_support import is_dynamic_import, module_file, write

ROOT = Path(__file__).resolve().parents[1]

ROOTS = (
    "gameplay.models",
    "gameplay.writes.services",
    "gameplay.reads.selectors",
    "gameplay.web.consumers",
    "gameplay.web.views",
    "gameplay.web.replay_views",
    "gameplay.web.board_image_views",
    "gameplay.web.forms",
    "gameplay.signals",
    "gameplay.reads.agent_directory",
    "gameplay.web.access",
    "gameplay.studies.models",
    "gameplay.studies.services",
    "gameplay.studies.pairing",
    "gameplay.studies.questionnaire_services",
    "gameplay.studies.selectors",
    "gameplay.studies.views",
    "gameplay.studies.waiting_views",
    "gameplay.studies.questionnaire_views",
)
# Not roots, and not clean today: the management commands play_match and bench_play drive agents directly, and
# the study bots (gameplay.studies.bots, a load-testing harness) build agent views; none is imported by the above.
FORBIDDEN = ("agents_app", "rating_app")


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imported_names(root: Path, name: str, path: Path) -> set[str]:
    """Every module name this file imports anywhere in its body, with the packages each one loads first."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if is_package(path) else name.rpartition(".")[0]
    found: set[str] = set()
    # A module-level __getattr__ (PEP 562) imports only when someone asks the package for that attribute by
    # name, e.g. ``gameplay.celery_app`` for Celery's command line; importing a submodule never runs it.
    lazy_attributes = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "__getattr__"]
    skipped = {id(inner) for fn in lazy_attributes for inner in ast.walk(fn)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1]) if node.level <= len(parts) else ""
                base = f"{anchor}.{node.module}" if node.module else anchor
            else:
                base = node.module or ""
            if not base:
                continue
            found.add(base)
            for alias in node.names:  # "from package import submodule" loads the submodule
                if alias.name != "*" and module_file(root, f"{base}.{alias.name}") is not None:
                    found.add(f"{base}.{alias.name}")
        elif isinstance(node, ast.Call) and is_dynamic_import(node.func) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    # Importing a.b.c runs a/__init__.py and a/b/__init__.py first.
    return {".".join(n.split(".")[:i]) for n in found for i in range(1, n.count(".") + 2)}


def reachable(root: Path, start: tuple[str, ...]) -> dict[str, str | None]:
    """Every module reached from ``start`` (project modules are followed, others only recorded) -> who imported it."""
    parent: dict[str, str | None] = {name: None for name in start}
    queue = deque(start)
    while queue:
        name = queue.popleft()
        path = module_file(root, name)
        if path is None:
            continue  # the standard library or an installed package: not followed
        for imported in sorted(imported_names(root, name, path)):
            if imported not in parent:
                parent[imported] = name
                queue.append(imported)
    return parent


def forbidden_chains(root: Path, start: tuple[str, ...], forbidden=FORBIDDEN) -> list[str]:
    """ "a -> b -> agents_app.x" for every forbidden module reached (empty when the boundary holds)."""
    parent = reachable(root, start)
    chains = []
    for name in sorted(parent):
        if name.split(".")[0] in forbidden:
            chain, node = [], name
            while node is not None:
                chain.append(node)
                node = parent[node]
            chains.append(" -> ".join(reversed(chain)))
    return chains


# --- the real project ---------------------------------------------------------------------------------------


def test_every_root_exists():
    for name in ROOTS:
        assert module_file(ROOT, name) is not None, name


def test_the_match_layer_reaches_neither_agents_nor_ratings():
    chains = forbidden_chains(ROOT, ROOTS)
    assert chains == [], "gameplay reaches another app:\n" + "\n".join(chains)


def test_the_walk_follows_late_imports_in_the_real_code():
    # gameplay.live.start starts a bout and queues its task inside functions: the walk must see those edges too.
    parent = reachable(ROOT, ROOTS)
    assert parent.get("gameplay.live.bout") == "gameplay.live.start"
    assert "gameplay.engines.registry" in parent and "django.db" in parent


def test_the_core_does_not_reach_the_studies_app():
    """Studies build on the match layer, never the other way round: the core asks the studies app who may view a
    private match through a check the studies app registers (gameplay.web.access.register_viewer_check)."""
    core = tuple(name for name in ROOTS if not name.startswith("gameplay.studies"))
    parent = reachable(ROOT, core)
    reached = sorted(name for name in parent if name.startswith("gameplay.studies"))
    assert reached == [], f"the core reaches the studies app: {reached}"


# --- the check itself fails when someone adds such an import ------------------------------------------------


@pytest.fixture
def project(tmp_path):
    """A small project shaped like ours, clean to begin with."""
    write(tmp_path, "gameplay/__init__.py", "")
    write(tmp_path, "gameplay/writes/services.py", "from django.db import transaction\nfrom gameplay import helpers\n")
    write(tmp_path, "gameplay/helpers.py", "from .signals import agent_turn_due\n")
    write(tmp_path, "gameplay/signals.py", "from django.dispatch import Signal\nagent_turn_due = Signal()\n")
    write(tmp_path, "agents_app/__init__.py", "")
    write(tmp_path, "agents_app/tasks.py", "from gameplay import services\n")
    write(tmp_path, "rating_app/__init__.py", "")
    write(tmp_path, "rating_app/services.py", "")
    return tmp_path


def test_the_clean_temporary_project_passes(project):
    assert forbidden_chains(project, ("gameplay.writes.services",)) == []


@pytest.mark.parametrize(
    ("module", "source", "reached"),
    [
        (
            "gameplay/helpers.py",
            """\
            from .signals import agent_turn_due

            def later():
                from agents_app.tasks import play  # a late import, only run when called
                return play
            """,
            "gameplay.writes.services -> gameplay.helpers -> agents_app.tasks",
        ),
        (
            "gameplay/helpers.py",
            "import rating_app.services\n",
            "gameplay.writes.services -> gameplay.helpers -> rating_app",
        ),
        (
            "gameplay/helpers.py",
            "from agents_app import tasks\n",
            "gameplay.writes.services -> gameplay.helpers -> agents_app.tasks",
        ),
        (
            "gameplay/signals.py",
            """\
            import importlib

            def provider():
                return importlib.import_module("agents_app.tasks")
            """,
            "gameplay.writes.services -> gameplay.helpers -> gameplay.signals -> agents_app.tasks",
        ),
    ],
)
def test_an_added_import_of_another_app_fails_the_check(project, module, source, reached):
    write(project, module, source)
    chains = forbidden_chains(project, ("gameplay.writes.services",))
    assert reached in chains, chains


def test_relative_imports_resolve_against_their_package(project):
    write(project, "gameplay/engines/__init__.py", "")
    write(project, "gameplay/engines/api.py", "from ..helpers import x\nfrom . import registry\n")
    write(project, "gameplay/engines/registry.py", "")
    write(project, "gameplay/helpers.py", "from .engines import api\n")
    parent = reachable(project, ("gameplay.writes.services",))
    assert {"gameplay.engines.api", "gameplay.engines.registry", "gameplay.helpers"} <= set(parent)


# --- the pure layers ------------------------------------------------------------------------------------------

PURE_PACKAGES = ("gameplay/engines", "agents_app/agents", "rating_app/ratings")
FRAMEWORKS = ("django", "channels", "celery", "daphne", "redis", "channels_redis")


def modules_under(root: Path, package: str) -> tuple[str, ...]:
    return tuple(
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for path in sorted((root / package).rglob("*.py"))
    )


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_the_pure_layers_reach_no_framework(package):
    """Engines, agents and ratings are plain Python: not even a late import of Django's settings."""
    roots = modules_under(ROOT, package)
    assert roots, package
    chains = forbidden_chains(ROOT, roots, forbidden=FRAMEWORKS)
    assert chains == [], f"{package} reaches a framework:\n" + "\n".join(chains)

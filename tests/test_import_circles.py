"""No import circle anywhere in the project's packages: each module's imports form a graph without cycles.

A circle means two modules cannot be understood (or loaded, or tested) one without the other; a late import inside a
function only hides one, so imports inside functions count as edges here too. What does not count: imports under
``if TYPE_CHECKING:`` (never run: annotations only), a module-level ``__getattr__`` (PEP 562: it runs only when an
attribute is asked for by name), and the implicit load of a module's parent package (``a.b.c`` runs ``a/__init__``
first: that is how packages work, not a dependency of ``c`` on its siblings).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.import_graph_support import is_dynamic_import, module_file, write

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("gameplay", "agents_app", "rating_app")


def project_modules(root: Path, packages=PACKAGES) -> list[str]:
    names = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """Nodes under ``if TYPE_CHECKING:`` and in a module-level ``__getattr__``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        typing_only = isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        lazy = isinstance(node, ast.FunctionDef) and node.name == "__getattr__" and node in tree.body
        if typing_only or lazy:
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def imports_of(root: Path, name: str) -> set[str]:
    """The project modules one module imports, at module level or inside functions."""
    path = module_file(root, name)
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    skipped = _skipped_nodes(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{node.module}" if node.module else anchor
            else:
                base = node.module or ""
            submodules = {f"{base}.{a.name}" for a in node.names if module_file(root, f"{base}.{a.name}")}
            found.update(submodules or {base})
        elif isinstance(node, ast.Call) and is_dynamic_import(node.func) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    project = set()
    for imported in found:  # "from a.b import name": the module a.b, not a package above it
        while imported and module_file(root, imported) is None:
            imported = imported.rpartition(".")[0]
        if imported and imported != name:
            project.add(imported)
    return project


def import_circles(root: Path, packages=PACKAGES) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan's algorithm, iteratively), each sorted."""
    graph = {name: imports_of(root, name) for name in project_modules(root, packages)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return sorted(circles)


def test_the_project_has_no_import_circle():
    circles = import_circles(ROOT)
    assert circles == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_the_walk_sees_the_real_imports():
    """The graph is the real one: a known module-level import and a known late import are edges."""
    assert "gameplay.reads.selectors" in imports_of(ROOT, "gameplay.writes.services")
    assert "agents_app.tournaments.services" in imports_of(ROOT, "agents_app.tournaments.tasks")
    assert "gameplay.studies.selectors" in imports_of(ROOT, "gameplay.studies.apps")  # inside a function


# --- the check fails on a circle ----------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path):
    write(tmp_path, "gameplay/__init__.py", "")
    write(tmp_path, "gameplay/services.py", "from gameplay import selectors\nfrom gameplay.capabilities import Hook\n")
    write(tmp_path, "gameplay/selectors.py", "from gameplay.models import Match\n")
    write(tmp_path, "gameplay/models.py", "")
    write(tmp_path, "gameplay/capabilities/__init__.py", "from .chat import Hook\n")
    write(tmp_path, "gameplay/capabilities/chat.py", "from .base import Base\nfrom typing import TYPE_CHECKING\n"
          "if TYPE_CHECKING:\n    from gameplay.services import apply\nclass Hook(Base): pass\n")
    write(tmp_path, "gameplay/capabilities/base.py", "class Base: pass\n")
    return tmp_path


def test_a_clean_project_has_none(project):
    # A package importing its submodules, and an import for annotations only, are not circles.
    assert import_circles(project, ("gameplay",)) == []


@pytest.mark.parametrize(
    ("module", "source", "circle"),
    [
        ("gameplay/models.py", "from gameplay.services import apply\n", ["gameplay.models", "gameplay.selectors",
                                                                         "gameplay.services"]),
        ("gameplay/models.py", "def later():\n    from gameplay import services  # late\n",
         ["gameplay.models", "gameplay.selectors", "gameplay.services"]),
        ("gameplay/capabilities/base.py", "import importlib\nS = importlib.import_module('gameplay.services')\n",
         ["gameplay.capabilities", "gameplay.capabilities.base", "gameplay.capabilities.chat",
          "gameplay.services"]),
    ],
    ids=["module-level", "late", "import_module"],
)
def test_a_circle_is_found(project, module, source, circle):
    write(project, module, source)
    assert import_circles(project, ("gameplay",)) == [circle]

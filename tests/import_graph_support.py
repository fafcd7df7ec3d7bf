"""Shared helpers of the static import checks (test_boundaries.py, test_import_circles.py): a project module's source
file, whether a call is a dynamic import (``importlib.import_module``, ``__import__``), and a file of a throwaway
project written for a check to fail on."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path


def module_file(root: Path, name: str) -> Path | None:
    """The source file of a project module (``a.b`` -> a/b.py or a/b/__init__.py), None outside the project."""
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def is_dynamic_import(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id in ("import_module", "__import__")) or (
        isinstance(func, ast.Attribute) and func.attr == "import_module"
    )


def write(root: Path, relative: str, source: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")

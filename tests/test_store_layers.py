"""The rendered-record store sits below the API: no module of events/store imports events.api (the API
registers its renderers into the store instead, events/api/store_renderers.py)."""
import ast
from pathlib import Path

import pytest

import events.store

STORE = Path(events.store.__file__).parent


def imported_modules(path):
    """Absolute names of the modules `path` imports, wherever the import statement stands."""
    package = "events.store"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


@pytest.mark.parametrize("path", sorted(STORE.glob("*.py")), ids=lambda path: path.name)
def test_the_store_imports_nothing_from_the_api(path):
    assert [name for name in imported_modules(path) if name == "events.api" or name.startswith("events.api.")] == []

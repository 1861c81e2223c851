"""The back office's packages match the back-office app's screens, name for name (ADR 0019)."""

from __future__ import annotations

from pathlib import Path

import pao.backoffice
from pao.core.settings import REPO_ROOT

PACKAGE = Path(pao.backoffice.__file__).parent
FEATURES = REPO_ROOT / "frontend" / "src" / "backoffice" / "features"


def _folders(root: Path) -> set[str]:
    return {p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("__")}


def test_every_screen_has_its_package_and_every_package_its_screen() -> None:
    assert _folders(PACKAGE) == _folders(FEATURES)


def test_each_area_names_its_router_routes_py() -> None:
    for area in sorted(_folders(PACKAGE)):
        assert (PACKAGE / area / "routes.py").is_file(), area


def test_no_flat_area_modules_at_the_root() -> None:
    root = {p.stem for p in PACKAGE.glob("*.py")}
    assert root == {
        "__init__",
        "ddl",
        "deps",
        "exceptions",
        "models",
        "routing",
        "schemas",
        "wiring",
    }

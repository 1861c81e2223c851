"""Every deployment setting (``PAO_*``) is in the README's configuration table."""

from __future__ import annotations

from pao.core.settings import REPO_ROOT, Settings


def _table() -> str:
    readme = (REPO_ROOT / "README.md").read_text()
    return readme[readme.index("## Configuration") : readme.index("## The operator CLI")]


def test_every_setting_is_documented() -> None:
    table = _table()
    missing = []
    for name in Settings.model_fields:
        env = f"PAO_{name.upper()}"
        # A grouped row names the rest of a family by its tail: `PAO_ARGON2_TIME_COST` /
        # `_MEMORY_KIB`.
        tail = "_" + name.upper().split("_", 1)[1] if "_" in name else env
        if f"`{env}`" not in table and f"`{tail}`" not in table:
            missing.append(env)
    assert not missing, f"add to README's configuration table: {missing}"

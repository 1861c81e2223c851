"""The grant is data: every permission is declared, the viewer only reads, the owner can do
everything, and the README's role table is the map itself."""

from __future__ import annotations

from pao.backoffice.staff.roles import (
    GRANTS,
    MEANING,
    Permission,
    Role,
    may,
    permissions_of,
    role_table,
)
from pao.core.settings import REPO_ROOT


def test_every_permission_is_granted_and_explained() -> None:
    assert set(GRANTS) == set(Permission) == set(MEANING)


def test_the_owner_holds_every_permission() -> None:
    assert permissions_of(Role.OWNER) == list(Permission)


def test_the_viewer_reads_and_does_nothing() -> None:
    held = permissions_of(Role.VIEWER)
    assert held, "the viewer reads something"
    # Own account: seeing yourself and ending your own sessions is not operating the site.
    assert all(p.value.endswith(".read") or p is Permission.OWN_ACCOUNT for p in held), held
    assert not any(
        may(Role.VIEWER, p) for p in Permission if p.value.endswith((".sensitive.read",))
    )


def test_an_unknown_role_holds_nothing() -> None:
    assert permissions_of("intern") == []


def test_readme_role_table_is_the_permission_map() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert role_table() in readme, "README's role table differs: paste roles.role_table()"

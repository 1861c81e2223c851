"""Imports point downward (docs: ARCHITECTURE "Layout"; ADR 0016): the domains never import
the layers above them (promotions, the back office, the reports, the ``pao ops`` commands),
not at the top of a module and not inside a function. A lower domain that needs something
from above declares a port (pao.kit.ports); the layer above plugs it in at start-up.

The scan reads the source (``ast``), so an import hidden in a function or under
``TYPE_CHECKING`` counts too; relative imports are resolved against the importing module, and
an import of a module outside the domains (``pao.models``) counts if that module brings in a
layer above.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pao.kit.ports import PortNotWired, declared_ports, require_wired
from pao.promotions.wiring import install as install_promotions

SRC = Path(__file__).resolve().parents[2] / "src"
LOWER = ("wallet", "games", "payments", "ledger", "identity", "site", "support", "kit", "core")
ABOVE = ("pao.promotions", "pao.backoffice", "pao.reports", "pao.ops")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, with the line: ``import a.b``, ``from a import b``
    (both ``a`` and ``a.b``: ``b`` may be a module), and relative forms resolved."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _is_above(module: str) -> bool:
    return any(module == above or module.startswith(above + ".") for above in ABOVE)


def _in_lower(module: str) -> bool:
    return any(module == f"pao.{domain}" or module.startswith(f"pao.{domain}.") for domain in LOWER)


def _source(module: str, root: Path) -> Path | None:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _reaches_above(module: str, root: Path, memo: dict[str, str | None]) -> str | None:
    """The module above that importing ``module`` (outside the lower domains: ``pao.models``,
    ``pao.observability``…) brings in, following its imports; None if none does."""
    if module in memo:
        return memo[module]
    memo[module] = None  # in progress: an import cycle adds nothing
    path = _source(module, root)
    for _, imported in imported_modules(path, root) if path is not None else []:
        if _is_above(imported):
            memo[module] = imported
            break
        if imported.startswith("pao.") and not _in_lower(imported):
            found = _reaches_above(imported, root, memo)
            if found is not None:
                memo[module] = found
                break
    return memo[module]


def upward_imports(root: Path) -> list[str]:
    """``file:line imports module`` for each import of a layer above by a lower domain, made
    directly or through a module outside the domains that imports one (``via``)."""
    found: list[str] = []
    memo: dict[str, str | None] = {}
    for domain in LOWER:
        for path in sorted((root / "pao" / domain).rglob("*.py")):
            for line, module in imported_modules(path, root):
                where = f"{path.relative_to(root)}:{line} imports {module}"
                if _is_above(module):
                    found.append(where)
                elif module.startswith("pao.") and not _in_lower(module):
                    above = _reaches_above(module, root, memo)
                    if above is not None:
                        found.append(f"{where} (via {above})")
    return sorted(set(found))


def test_domains_import_nothing_above_them() -> None:
    assert upward_imports(SRC) == []


def test_the_scan_finds_an_upward_import_wherever_it_hides(tmp_path: Path) -> None:
    """The rule can fail: a copy of the lower domains with upward imports planted in them."""
    for domain in LOWER:
        (tmp_path / "pao" / domain).mkdir(parents=True)
    (tmp_path / "pao" / "wallet" / "__init__.py").write_text('"""Wallet."""\n')
    (tmp_path / "pao" / "wallet" / "withdrawals.py").write_text(
        "from pao.promotions.gates import check_withdrawal_allowed\n"
    )
    (tmp_path / "pao" / "games" / "transfers.py").write_text(
        "async def gate() -> None:\n    import pao.backoffice.audit\n"
    )
    (tmp_path / "pao" / "payments" / "payouts").mkdir()
    (tmp_path / "pao" / "payments" / "payouts" / "cashier.py").write_text(
        "from ...reports import refresh\n"
    )
    (tmp_path / "pao" / "core" / "cli_bits.py").write_text("from pao import ops\n")
    (tmp_path / "pao" / "kit" / "fine.py").write_text("from pao.kit import money\n")
    # Through a module outside the domains: pao.models imports every domain's tables.
    (tmp_path / "pao" / "models.py").write_text("from pao.promotions import models\n")
    (tmp_path / "pao" / "site" / "tables.py").write_text("import pao.models\n")
    (tmp_path / "pao" / "support" / "tables.py").write_text("from pao import models\n")
    assert upward_imports(tmp_path) == [
        "pao/core/cli_bits.py:1 imports pao.ops",
        "pao/games/transfers.py:2 imports pao.backoffice.audit",
        "pao/payments/payouts/cashier.py:1 imports pao.reports",
        "pao/payments/payouts/cashier.py:1 imports pao.reports.refresh",
        "pao/site/tables.py:1 imports pao.models (via pao.promotions)",
        "pao/support/tables.py:1 imports pao.models (via pao.promotions)",
        "pao/wallet/withdrawals.py:1 imports pao.promotions.gates",
        "pao/wallet/withdrawals.py:1 imports pao.promotions.gates.check_withdrawal_allowed",
    ]


def test_every_declared_port_is_plugged_by_the_wiring() -> None:
    """The ports the wallet and games declare exist and promotions plugs every one; one left
    unplugged is refused at start-up (require_wired) and on use, never silently passed."""
    import pao.main  # noqa: F401  (imports every domain, so declares every port)

    install_promotions()
    ports = {port.name: port for port in declared_ports()}
    assert {"wallet.withdrawal_gate", "wallet.invite_summary", "games.transfer_gate"} <= set(ports)
    require_wired()
    gate = ports["wallet.withdrawal_gate"]
    gate.unplug()
    try:
        with pytest.raises(PortNotWired, match=r"wallet\.withdrawal_gate"):
            require_wired()
        with pytest.raises(PortNotWired, match=r"wallet\.withdrawal_gate"):
            gate.impl(None, member_id=1)
    finally:
        install_promotions()
    require_wired()

"""Writes (or checks) ``contract/openapi.json``: the API contract the frontend types come from.

``python -m pao.contract`` rewrites it; ``python -m pao.contract --check`` fails when the
committed file differs from what the app generates.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pao.core.settings import REPO_ROOT, Settings
from pao.main import create_app

CONTRACT = REPO_ROOT / "contract" / "openapi.json"


def generate() -> str:
    # The contract is the production API: no sandbox routes, whatever the environment says.
    app = create_app(Settings(sandbox=False, data_dir=Path("/nonexistent-pao-contract")))
    return json.dumps(app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = generate()
    if "--check" in argv:
        if not CONTRACT.is_file() or CONTRACT.read_text(encoding="utf-8") != text:
            print("contract/openapi.json is stale: run `make contract`", file=sys.stderr)
            return 1
        return 0
    CONTRACT.parent.mkdir(parents=True, exist_ok=True)
    CONTRACT.write_text(text, encoding="utf-8")
    print(f"wrote {CONTRACT.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

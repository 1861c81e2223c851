"""Every code the backend can answer is in the one list the app's translations are checked
against, ``frontend/src/lib/error-codes.json`` (its i18n check requires a text per code in each
locale and a description of each code Pao added beyond the spec's catalogue).

The codes the backend can answer are collected from the code itself, not from a second list:
the ``code`` of every :class:`~pao.core.errors.AppError` subclass, the catalogue codes passed to
an error's constructor or to ``PydanticCustomError``, the codes the error handlers answer with,
the codes every route documents in the OpenAPI document, and the slip reasons.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import pao
from pao.contract import generate
from pao.core.errors import CATALOGUE_CODE, AppError
from pao.core.settings import REPO_ROOT
from pao.payments.slips.models import SlipReason

CATALOGUE: dict[str, Any] = json.loads(
    (REPO_ROOT / "frontend" / "src" / "lib" / "error-codes.json").read_text(encoding="utf-8")
)
SOURCE = Path(pao.__file__).parent
# The HTTP layer's two lower-case codes (spec §8): the app routes on them rather than shows them.
HTTP_LAYER = frozenset(CATALOGUE["httpLayer"])


def documented(group: str) -> set[str]:
    entry = CATALOGUE[group]
    return {*entry["spec"], *entry.get("added", {}), *entry.get("client", {})}


ERROR_CODES = documented("errorMsg") | HTTP_LAYER
SLIP_REASONS = documented("slipReason")


def _subclasses(cls: type[AppError]) -> Iterator[type[AppError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def error_classes() -> list[type[AppError]]:
    # Import every module, so that every error class exists.
    for module in pkgutil.walk_packages(pao.__path__, "pao."):
        importlib.import_module(module.name)
    return [AppError, *_subclasses(AppError)]


def literal_codes() -> dict[str, str]:
    """Catalogue codes written as the first argument (or ``code=``) of an error's constructor
    or of ``PydanticCustomError``, and every code in pao/core/errors.py (its handlers'), with
    where each is written."""
    constructors = {cls.__name__ for cls in error_classes()} | {"PydanticCustomError"}
    found: dict[str, str] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        where = str(path.relative_to(SOURCE))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                where == "core/errors.py"
                and isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and CATALOGUE_CODE.fullmatch(node.value)
            ):
                found[node.value] = where
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in constructors:
                continue
            arguments = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "code")]
            for argument in arguments:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    found[argument.value] = f"{where}:{node.lineno}"
    return found


def openapi_codes() -> dict[str, str]:
    """The codes each route documents per status (``"WRONG_CREDENTIAL | LOGIN_FAIL"``, a code
    possibly followed by a note in parentheses), with the route."""
    found: dict[str, str] = {}
    for path, operations in json.loads(generate())["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items():
                if not status.startswith(("4", "5")):
                    continue
                for part in response["description"].split("|"):
                    found[part.strip().split(" (")[0]] = f"{status} {method.upper()} {path}"
    return found


def test_every_error_class_code_is_listed() -> None:
    missing = {cls.__qualname__: cls.code for cls in error_classes() if cls.code not in ERROR_CODES}
    assert missing == {}


def test_every_literal_code_is_listed() -> None:
    missing = {code: where for code, where in literal_codes().items() if code not in ERROR_CODES}
    assert missing == {}


def test_every_documented_code_is_a_listed_code() -> None:
    # A description that is not a list of codes (FastAPI's "Validation Error") fails here too.
    missing = {code: where for code, where in openapi_codes().items() if code not in ERROR_CODES}
    assert missing == {}


def test_every_slip_reason_is_listed() -> None:
    reasons = {reason.value for reason in SlipReason} | {"SLIP_UPLOAD_CLOSED"}
    assert reasons - SLIP_REASONS == set()


def test_every_added_code_is_one_the_backend_answers() -> None:
    """An added code documents something real: an error class, a literal or a route has it."""
    answered = {cls.code for cls in error_classes()} | set(literal_codes()) | set(openapi_codes())
    stale = set(CATALOGUE["errorMsg"]["added"]) - answered
    assert stale == set()
    # And an added code is not also one of the spec's.
    assert set(CATALOGUE["errorMsg"]["added"]) & set(CATALOGUE["errorMsg"]["spec"]) == set()


@pytest.mark.parametrize("group", ["errorMsg", "slipReason"])
def test_each_added_code_is_described(group: str) -> None:
    added: dict[str, str] = CATALOGUE[group]["added"]
    assert added
    assert {code: text for code, text in added.items() if len(text.strip()) < 20} == {}

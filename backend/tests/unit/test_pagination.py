"""The paged lists' one wire schema (pao.kit.pagination): built from rows and a row mapper, with
the camelCase names of the contract and a stable OpenAPI name per item type."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from pao.core.settings import Settings
from pao.kit.pagination import Page, PageRequest, Rows
from pao.main import create_app


@dataclass(frozen=True)
class _Row:
    n: int


class ProbeLineOut(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)
    line_no: int

    @classmethod
    def of(cls, row: _Row) -> ProbeLineOut:
        return cls(line_no=row.n)


def test_a_page_maps_each_row_and_echoes_the_request() -> None:
    page = Page[ProbeLineOut].of(
        [_Row(3), _Row(4)], ProbeLineOut.of, total=12, request=PageRequest(page=2, limit=2)
    )
    assert page.model_dump(mode="json", by_alias=True) == {
        "items": [{"lineNo": 3}, {"lineNo": 4}],
        "total": 12,
        "page": 2,
        "limit": 2,
    }
    assert isinstance(page, Page)


def test_rows_carry_items_and_total_only() -> None:
    rows = Rows[ProbeLineOut].of(iter([_Row(1)]), ProbeLineOut.of, total=1)
    assert rows.model_dump(mode="json", by_alias=True) == {"items": [{"lineNo": 1}], "total": 1}
    empty = Rows[ProbeLineOut].of([], ProbeLineOut.of, total=0)
    assert empty.model_dump(by_alias=True) == {"items": [], "total": 0}


def test_the_echo_is_asked_of_a_page_and_refused_by_rows() -> None:
    with pytest.raises(TypeError, match="echoes the request"):
        Page[ProbeLineOut].of([], ProbeLineOut.of, total=0)
    with pytest.raises(TypeError, match="does not echo"):
        Rows[ProbeLineOut].of([], ProbeLineOut.of, total=0, request=PageRequest())


def test_an_instantiation_is_one_class_named_after_its_item() -> None:
    assert Page[ProbeLineOut] is Page[ProbeLineOut]
    assert Page[ProbeLineOut].__name__ == "ProbeLinePage"
    assert Rows[ProbeLineOut].__name__ == "ProbeLineRows"
    schema = Page[ProbeLineOut].model_json_schema()
    assert schema["title"] == "ProbeLinePage"
    assert schema["required"] == ["items", "total", "page", "limit"]
    assert "description" not in schema


def test_two_item_classes_of_one_name_are_refused() -> None:
    # A second ProbeLineOut would share the OpenAPI name ProbeLinePage with the first.
    Page[ProbeLineOut]
    other = type("ProbeLineOut", (BaseModel,), {"__module__": "elsewhere"})
    with pytest.raises(TypeError, match="ProbeLinePage is taken"):
        Page.__class_getitem__(other)


def test_the_contract_names_every_page_after_its_item(tmp_path: Path) -> None:
    nowhere = tmp_path / "nowhere"
    app = create_app(Settings(sandbox=False, data_dir=nowhere, static_dir=nowhere))
    schemas = app.openapi()["components"]["schemas"]
    pages = {name for name in schemas if name.endswith(("Page", "Rows"))}
    assert {"MemberRowPage", "AuditEntryPage", "MemberNoteRows", "WithdrawalRowPage"} <= pages
    # Not pydantic's own names (Page_MemberRowOut_), nor module paths (pao__…__Page).
    assert not [n for n in schemas if n.startswith(("Page_", "Rows_")) or "Page__" in n]
    assert not [n for n in schemas if "BannerOut" in n and n != "BannerOut"]
    for name in pages:
        expected = {"items", "total", "page", "limit"} if name.endswith("Page") else None
        assert set(schemas[name]["properties"]) == (expected or {"items", "total"}), name

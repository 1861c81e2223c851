"""Paged lists of the contract: the request (``{page, limit}``, pages count from 1) and the
answer, one generic wire schema for every list.

* :class:`Page` is a page whose answer echoes the request: ``{items, total, page, limit}``.
* :class:`Rows` is the same without the echo, ``{items, total}`` (the member page's tabs).

Both are built in one way, from the rows a query returned and a function mapping one row to its
wire schema: ``Page[MemberRowOut].of(rows, MemberRowOut.of, total=total, request=query)``.

Each instantiation is a schema of its own in the OpenAPI document, named after the item and the
shape (``Page[MemberRowOut]`` is ``MemberRowPage``, ``Rows[MemberNoteOut]`` is
``MemberNoteRows``) rather than pydantic's ``Page_MemberRowOut_``: the frontend's types are
generated from those names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.alias_generators import to_camel

from pao.core.params import RequestModel

T = TypeVar("T")
R = TypeVar("R")


class PageRequest(RequestModel):
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=10, ge=1, le=100)

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.limit


class PageSpec(Protocol):
    """What a page's answer echoes: any query with a page number and a page size."""

    @property
    def page(self) -> int: ...

    @property
    def limit(self) -> int: ...


# Schema name -> (shape, item) of the instantiation that holds it: two item classes of one name
# would give one OpenAPI name to two schemas (pydantic would then fall back to module paths).
_NAMED: dict[str, tuple[type[Any], Any]] = {}
_CONCRETE: dict[tuple[type[Any], Any], type[Any]] = {}


class Rows(BaseModel, Generic[T]):
    """One page of a list and how many rows the list has in all."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)
    # What an instantiation's schema name ends with: ``<Item without Out><suffix>``.
    schema_suffix: ClassVar[str] = "Rows"

    items: list[T]
    total: int

    def __class_getitem__(cls, item: Any) -> Any:
        parametrized = super().__class_getitem__(item)
        if (
            not isinstance(item, type)
            or not isinstance(parametrized, type)
            or cls.__pydantic_generic_metadata__["origin"] is not None
        ):
            return parametrized  # Rows[T] in a subclass's bases, or a re-parametrization
        key = (cls, item)
        concrete = _CONCRETE.get(key)
        if concrete is None:
            name = item.__name__.removesuffix("Out") + cls.schema_suffix
            taken = _NAMED.setdefault(name, key)
            if taken != key:
                raise TypeError(
                    f"{cls.__name__}[{item.__qualname__}]: the schema name {name} "
                    f"is taken by {taken[0].__name__}[{taken[1].__module__}."
                    f"{taken[1].__qualname__}]"
                )
            # No docstring: the schema carries no description, as the per-list classes had none.
            concrete = create_model(name, __base__=parametrized, __module__=item.__module__)
            _CONCRETE[key] = concrete
        return concrete

    @classmethod
    def of(
        cls,
        rows: Iterable[R],
        to_item: Callable[[R], T],
        *,
        total: int,
        request: PageSpec | None = None,
    ) -> Self:
        """The page of ``rows``, each mapped by ``to_item``; ``request`` is the query a
        :class:`Page` echoes (a :class:`Rows` takes none)."""
        return cls(items=[to_item(row) for row in rows], total=total, **cls._echo(request))

    @classmethod
    def _echo(cls, request: PageSpec | None) -> dict[str, int]:
        if request is not None:
            raise TypeError(f"{cls.__name__} does not echo the request: use Page")
        return {}


class Page(Rows[T], Generic[T]):
    """One page of a list, how many rows the list has in all, and the page asked for."""

    schema_suffix: ClassVar[str] = "Page"

    page: int
    limit: int

    @classmethod
    def _echo(cls, request: PageSpec | None) -> dict[str, int]:
        if request is None:
            raise TypeError(f"{cls.__name__} echoes the request: pass request=")
        return {"page": request.page, "limit": request.limit}

"""Ports: how a lower domain asks a domain above it without importing it.

Imports point downward (docs: ARCHITECTURE "Layout"): the wallet may not import promotions,
yet a withdrawal must ask promotions whether an active bonus forbids it. So the wallet
declares what it needs, a :class:`Port` typed by a ``Protocol`` of its own
(``pao.wallet.ports``), and promotions plugs its implementation in at start-up
(``pao.promotions.wiring.install``, called by ``create_app``, the ``pao`` command and the
tests). The lower domain calls ``PORT.impl(...)``: one attribute read, no lookup, no extra
await.

A port nobody plugged in refuses: any use of it raises :class:`PortNotWired`, so a missing
wiring stops the money path (a 500) instead of silently letting a gate pass; and
:func:`require_wired`, run by ``create_app`` right after the wiring, makes the app fail to
start instead. (No port has a default answer: the ones there are today either guard money or
would show a member wrong figures.)
"""

from __future__ import annotations

from typing import Any, Generic, NoReturn, TypeVar, cast

T = TypeVar("T")


class PortNotWired(RuntimeError):
    """A port was used before its implementation was plugged in: a wiring bug, not input."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"port {name} is not wired: call the wiring of the domain that provides it "
            "(pao.promotions.wiring.install) before using it"
        )
        self.name = name


class _Unwired:
    """Stands in for the implementation until one is plugged in: every use raises."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __call__(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise PortNotWired(self._name)

    def __getattr__(self, attribute: str) -> NoReturn:
        raise PortNotWired(self._name)


# Every port declared so far, for require_wired (read at start-up only, never per call).
_DECLARED: list[Port[Any]] = []


class Port(Generic[T]):
    """One thing a lower domain needs from above, named ``<domain>.<what>``."""

    __slots__ = ("impl", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        self.impl: T = cast(T, _Unwired(name))
        _DECLARED.append(self)

    @property
    def wired(self) -> bool:
        """Whether an implementation is plugged in."""
        return not isinstance(self.impl, _Unwired)

    def plug(self, implementation: T) -> None:
        """Plug ``implementation`` in (again: the same one each time the app is built)."""
        self.impl = implementation

    def unplug(self) -> None:
        """Back to refusing (tests of the wiring itself)."""
        self.impl = cast(T, _Unwired(self.name))

    def __repr__(self) -> str:
        return f"Port({self.name!r}, wired={self.wired})"


def declared_ports() -> tuple[Port[Any], ...]:
    """Every port declared by the modules imported so far."""
    return tuple(_DECLARED)


def require_wired() -> None:
    """Raise :class:`PortNotWired` naming the first port without an implementation.

    ``create_app`` calls it after the wiring: it imports every domain (their routers), so
    every port is declared by then, and a port added without its implementation stops the
    start-up rather than the first withdrawal."""
    for port in _DECLARED:
        if not port.wired:
            raise PortNotWired(port.name)

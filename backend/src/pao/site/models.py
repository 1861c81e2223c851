"""Operator settings: one JSON value per key, edited at run time (``pao ops settings``, the
back office's editors), and the history of every change to them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow


class SiteSetting(Base):
    __tablename__ = "site_settings"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow, onupdate=utcnow)
    updated_by: Mapped[str] = mapped_column(String(80), default="system")


class SiteSettingChange(Base):
    """One key's value before and after one change. Append-only.

    Every write of :func:`pao.site.settings.set_value` adds a row, whoever made it (a staff
    member's login, ``ops:<user>`` at the shell). ``change_set`` groups the keys of one save, so
    that a save of several keys is one version to show and to revert. ``before`` is ``None``
    when the key had no row (its default applied)."""

    __tablename__ = "site_setting_changes"
    __table_args__ = (
        Index("ix_site_setting_changes_key_at", "key", "at"),
        Index("ix_site_setting_changes_change_set", "change_set"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    change_set: Mapped[str] = mapped_column(String(32))
    key: Mapped[str] = mapped_column(String(80))
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    actor: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)

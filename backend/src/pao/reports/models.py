"""The summary tables of the reports (ADR 0015), written only by :mod:`pao.reports.refresh`.

* :class:`LedgerDay` — per operator-local day, currency, account kind, owner, entry kind and
  "slip" mark: the postings that took money out of accounts of that kind and those that put
  money in. Player wallets are folded into one owner ('') — their per-member figures are in
  :class:`MemberDay` — and shared accounts are grouped by kind and owner, never by account id
  (a shared account may be split into shards: same kind and owner).
* :class:`MemberDay` — per member and day: deposits (wallet credits paid by a deposit source).
* :class:`MemberFirstDeposit` — each member's first deposit day (first-deposit conversion).
* :class:`Watermark` / :class:`WatermarkGap` — how far the journal has been summarised; a gap
  is an entry id above the watermark that was not visible yet (a transaction still open).
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, Boolean, Date, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, UtcDateTime


class LedgerDay(Base):
    __tablename__ = "report_ledger_days"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    account_kind: Mapped[str] = mapped_column(String(40), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    entry_kind: Mapped[str] = mapped_column(String(40), primary_key=True)
    marked: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    out_count: Mapped[int] = mapped_column(BigInteger, default=0)
    out_sum: Mapped[int] = mapped_column(BigInteger, default=0)
    in_count: Mapped[int] = mapped_column(BigInteger, default=0)
    in_sum: Mapped[int] = mapped_column(BigInteger, default=0)


class MemberDay(Base):
    __tablename__ = "report_member_days"
    # Top depositors over a range walk (member, day); the day report walks (day, member).
    __table_args__ = (Index("ix_report_member_days_member_day", "member_id", "day"),)

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    member_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    currency: Mapped[str] = mapped_column(String(3), primary_key=True)
    deposit_count: Mapped[int] = mapped_column(BigInteger, default=0)
    deposit_sum: Mapped[int] = mapped_column(BigInteger, default=0)


class MemberFirstDeposit(Base):
    __tablename__ = "report_member_first_deposits"

    member_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    currency: Mapped[str] = mapped_column(String(3))
    day: Mapped[date] = mapped_column(Date, index=True)


class Watermark(Base):
    __tablename__ = "report_watermarks"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    last_id: Mapped[int] = mapped_column(BigInteger, default=0)
    # The time zone the days were cut in: a change of the site's zone rebuilds the summaries.
    zone: Mapped[str] = mapped_column(String(64))
    refreshed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class WatermarkGap(Base):
    __tablename__ = "report_watermark_gaps"

    entry_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    noticed_at: Mapped[datetime] = mapped_column(UtcDateTime)

"""Wire shapes of the player-protection calls (amounts in major units, as everywhere)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pao.core.params import RequestModel
from pao.kit.money import MajorAmount, WireAmount
from pao.protection.service import LimitState


class _Wire(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class LimitOut(_Wire):
    period: Literal["day", "week", "month"]
    amount: MajorAmount | None = Field(description="In force now; null: no limit.")
    pending: MajorAmount | None = Field(
        description="A raise or removal asked, in force from pendingFrom (null with it: none)."
    )
    pending_from: datetime | None = Field(alias="pendingFrom")
    deposited: MajorAmount = Field(
        description="Deposited over the period, up to now (a loss limit: lost, deposits less "
        "withdrawals)."
    )
    remaining: MajorAmount | None

    @classmethod
    def of_states(cls, states: list[LimitState]) -> list[LimitOut]:
        return [
            cls(
                period=s.period,
                amount=s.amount,
                pending=s.pending,
                pending_from=s.pending_from,
                deposited=s.deposited,
                remaining=s.remaining,
            )
            for s in states
        ]


class ExclusionOut(_Wire):
    kind: Literal["timeout", "self_exclusion"]
    starts_at: datetime = Field(alias="startsAt")
    ends_at: datetime | None = Field(
        alias="endsAt", description="The period's end; null: indefinite."
    )
    until: datetime | None = Field(
        description="When play opens again; null: not before the member asks (self-exclusion)."
    )
    end_requested_at: datetime | None = Field(alias="endRequestedAt")
    can_request_end: bool = Field(alias="canRequestEnd")


class ProtectionOut(_Wire):
    limits: list[LimitOut]
    loss_limits: list[LimitOut] = Field(
        alias="lossLimits",
        description="Loss limits: deposited is the loss so far (deposits less withdrawals).",
    )
    excluded: bool = Field(description="No deposits, play or bonuses now; withdrawals stay open.")
    exclusion: ExclusionOut | None
    reality_check_minutes: int | None = Field(
        alias="realityCheckMinutes",
        description="The reality-check reminder's interval in minutes; null: off.",
    )


class RealityCheckIn(_Wire, RequestModel):
    minutes: int | None = Field(
        ge=15, le=120, description="15, 30, 45, 60, 90 or 120; null: no reminder."
    )


class RealityCheckOut(_Wire):
    minutes: int | None = Field(description="The interval; null: off (no reminder).")
    login_at: datetime = Field(alias="loginAt", description="When this login session began.")
    now: datetime = Field(description="The server's time, for the app's timer.")
    net: MajorAmount = Field(
        description="Net result from play since login: what came back from games (wins, "
        "rollbacks, transfers back) less what went to them (bets, transfers to games), from "
        "the ledger; negative: a loss. Deposits, withdrawals and bonuses do not count."
    )
    currency: str


class LimitsIn(_Wire, RequestModel):
    day: WireAmount | None = None
    week: WireAmount | None = None
    month: WireAmount | None = None


class ExclusionIn(_Wire, RequestModel):
    kind: Literal["timeout", "self_exclusion"]
    days: int | None = Field(
        ge=1,
        le=1825,
        description="timeout: 1–30; self_exclusion: 182, 365, 1825 or null (indefinite).",
    )

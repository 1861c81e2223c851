"""Wire shapes of the wallet calls (spec §3 and §7), with the contract's field names."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pao.core.params import RequestModel
from pao.identity.schemas import BankAccountOut
from pao.kit.money import Currency, MajorAmount, WireAmount
from pao.wallet.models import StatementStatus, StatementType, WithdrawalStatus


class _Wire(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class WalletProfile(_Wire):
    name: str
    username: str = Field(description="The member's phone number.")
    coin: int = Field(description="Prize-wheel coins.")
    id: str = Field(alias="_id")


class WalletAmount(_Wire):
    amount: MajorAmount = Field(description="The wallet balance, holds excluded.")
    # The app formats the balance by it: kip without decimals (a LAK wallet in the Lao variant).
    currency: Currency = Field(description="The wallet's currency: THB, or LAK (Lao variant).")


class InviteSummary(_Wire):
    amount: MajorAmount = Field(description="Invite bonus waiting to be collected.")
    success: int = Field(description="Invitees whose invite counted.")
    fail: int = Field(description="Invitees whose invite did not count.")


class Slot(_Wire):
    """A game account of the member (filled in by the games issue)."""

    code: str
    name: str
    category: Literal["slot", "sport", "lotto"]
    is_active: bool = Field(alias="isActive")
    amount: MajorAmount
    ft_wallet_slot: float = Field(alias="ftWalletSlot")
    logo: str
    background: str
    web: str | None = Field(description="Login URL, or null.")
    android: str | None
    ios: str | None
    stale: bool = Field(
        default=False, description="True when the provider did not answer the last refresh."
    )
    updated_at: datetime | None = Field(
        default=None, alias="updatedAt", description="When the provider last told the amount."
    )
    provider_state: Literal["ok", "maintenance", "down"] = Field(
        default="ok",
        alias="providerState",
        description="ok; maintenance (set by the operator, until maintenanceUntil if given); "
        "down (the provider is failing, temporarily unavailable). Not ok: transfers to or from "
        "the game and its launch are refused, and amount is the last known one.",
    )
    maintenance_until: datetime | None = Field(
        default=None,
        alias="maintenanceUntil",
        description="The planned end of the provider's maintenance, when the operator gave one.",
    )
    mode: Literal["transfer", "seamless"] = Field(
        default="transfer",
        description="transfer: a game account the member moves money to and back; seamless: "
        "the provider's games play straight from the wallet (no account, no transfer; amount "
        "is 0 and the games are listed by GET /api/games/seamless/{code}).",
    )


class WalletResponse(_Wire):
    profile: WalletProfile
    # The same shape as the profile's (one schema in the contract).
    bank_account: BankAccountOut = Field(alias="bankAccount")
    wallet: WalletAmount
    invite: InviteSummary
    slots: list[Slot]


class WithdrawRequest(_Wire, RequestModel):
    amount: WireAmount


class WithdrawResponse(_Wire):
    code: Literal["OK"]
    status: WithdrawalStatus
    withdrawal_id: int = Field(alias="withdrawalId")


class StatementNote(_Wire):
    description: str = Field(description="The note in the requested locale.")
    code: str | None = Field(
        default=None,
        description="What the note says, for the client to translate: bonus.received, "
        "bonus.finished, promotion.received, refund.received, invite.collected, "
        "luckydraw.prize, withdraw.rejected, withdraw.failed. Absent on lines older than the "
        "codes.",
    )
    params: dict[str, str] | None = Field(
        default=None,
        description="The code's parameters in the requested locale (name: the bonus's name; "
        "prize: the wheel prize; reason: why a withdrawal was not paid, as staff wrote it).",
    )


class StatementLine(_Wire):
    id: str = Field(alias="_id")
    statement_type: StatementType = Field(alias="statementType")
    status: StatementStatus
    from_: str = Field(alias="from")
    to: str
    amount: MajorAmount
    created_at: datetime = Field(alias="createdAt")
    bonus: StatementNote | None = None
    promotion: StatementNote | None = None
    invite: StatementNote | None = None
    refund: StatementNote | None = None
    luckydraw: StatementNote | None = None
    withdraw: StatementNote | None = Field(
        default=None,
        description="Why a FAILED withdrawal was not paid, and that the money is back.",
    )


class StatementsResponse(_Wire):
    total: int
    statements: list[StatementLine]

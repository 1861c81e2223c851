"""``GET /api/lookup/deposit``: the ways a member can deposit, from the receiving accounts.

``isManual`` is true when no way in is automatic (no AUTO bank, no gateway, no TrueMoney):
the member can then only transfer and upload a slip.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.openapi import errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.kit.money import MajorAmount
from pao.payments.accounts import ReceivingAccount, ReceivingKind, ReceivingMode, active_accounts
from pao.payments.qr.service import minimum_for
from pao.site.banks import find_bank
from pao.site.settings import SiteSettings, load_site_settings

router = APIRouter(route_class=UnitOfWorkRoute)

GATEWAY_NAMES = {"WW": "WW Pay", "PAYTIMZ": "Paytimz", "PAYONEX": "Payonex"}


class BankName(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    name_th: str = Field(alias="nameTH")
    name_en: str = Field(alias="nameEN")


class DepositBank(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    bank_code: str = Field(alias="bankCode")
    bank_type: str = Field(alias="bankType", description="PAYMENT for gateways, else BANK.")
    mode: str = Field(description="AUTO or MANUAL.")
    bank: BankName
    bank_account_name: str = Field(alias="bankAccountName")
    bank_account_no: str = Field(alias="bankAccountNo")
    currency: str
    qr_minimum: MajorAmount | None = Field(
        default=None,
        alias="qrMinimum",
        description="Smallest QR deposit (major units) of a QR channel (KBANK AUTO, gateways).",
    )


class DepositWallet(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    mode: str = Field(description="AUTO or GIFT_LINK.")
    wallet_account_name: str = Field(alias="walletAccountName")


class DepositLookup(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    banks: list[DepositBank]
    wallets: list[DepositWallet]
    is_manual: bool = Field(alias="isManual")


def _bank_entry(account: ReceivingAccount, site: SiteSettings) -> DepositBank:
    gateway = account.kind == ReceivingKind.GATEWAY
    known = find_bank(account.code)
    if known is not None:
        name = BankName(name_th=known.name_th, name_en=known.name_en)
    else:
        label = GATEWAY_NAMES.get(account.code, account.code)
        name = BankName(name_th=label, name_en=label)
    return DepositBank(
        bank_code=account.code,
        bank_type="PAYMENT" if gateway else "BANK",
        mode=ReceivingMode.AUTO if gateway else account.mode,
        bank=name,
        bank_account_name=account.account_name,
        bank_account_no=account.account_no,
        currency=account.currency,
        qr_minimum=(
            minimum_for(account.code, site, account.currency)
            if gateway or account.mode == ReceivingMode.AUTO
            else None
        ),
    )


async def deposit_lookup(session: AsyncSession) -> DepositLookup:
    accounts = await active_accounts(session)
    site = await load_site_settings(session)
    banks = [_bank_entry(a, site) for a in accounts if a.kind != ReceivingKind.TRUEMONEY]
    wallets = [
        DepositWallet(mode=a.mode, wallet_account_name=a.account_name)
        for a in accounts
        if a.kind == ReceivingKind.TRUEMONEY
    ]
    automatic = any(b.mode == ReceivingMode.AUTO for b in banks) or bool(wallets)
    return DepositLookup(banks=banks, wallets=wallets, is_manual=not automatic)


@router.get(
    "/api/lookup/deposit",
    operation_id="lookupDeposit",
    tags=["lookup"],
    response_model=DepositLookup,
    responses=errors(_410="gone"),
    summary="Ways to deposit",
    description="Banks (bank transfer with slip, KBANK AUTO for QR, gateways with bankType "
    "PAYMENT) and wallets (TrueMoney) from the operator's active receiving accounts.",
)
async def lookup_deposit(session: SessionDep) -> Any:
    return await deposit_lookup(session)

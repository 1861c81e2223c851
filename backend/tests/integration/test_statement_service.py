"""record_statement / set_statement_status: what other domains call to report to members."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.service import create_member
from pao.kit.money import Currency
from pao.kit.states import IllegalTransition
from pao.wallet.exceptions import StatementNotFound
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import record_statement, set_statement_status
from tests.helpers import new_bank_account_no, new_phone


async def new_member_id(session: AsyncSession) -> int:
    member = await create_member(
        session,
        phone=new_phone(),
        name="Test",
        password="secret123",
        bank_code="KBANK",
        bank_account_name="TEST MEMBER",
        bank_account_no=new_bank_account_no(),
    )
    return member.id


async def line(session: AsyncSession, member_id: int, ref_id: str, **extra: object) -> None:
    await record_statement(
        session,
        member_id=member_id,
        statement_type=StatementType.TRANSFER,
        status=StatementStatus.PENDING,
        amount=10_00,
        currency=Currency.THB,
        from_label="WALLET",
        to_label="PG",
        ref_type="game_transfer",
        ref_id=ref_id,
        **extra,  # type: ignore[arg-type]
    )


async def test_settle_once(session: AsyncSession) -> None:
    member_id = await new_member_id(session)
    await line(session, member_id, "t1")

    settled = await set_statement_status(
        session, ref_type="game_transfer", ref_id="t1", status=StatementStatus.SUCCESS
    )
    again = await set_statement_status(  # a repeated callback: nothing to do
        session, ref_type="game_transfer", ref_id="t1", status=StatementStatus.SUCCESS
    )

    assert settled.status == again.status == StatementStatus.SUCCESS
    with pytest.raises(IllegalTransition):
        await set_statement_status(
            session, ref_type="game_transfer", ref_id="t1", status=StatementStatus.FAILED
        )


async def test_unknown_reference(session: AsyncSession) -> None:
    with pytest.raises(StatementNotFound):
        await set_statement_status(
            session, ref_type="game_transfer", ref_id="nope", status=StatementStatus.SUCCESS
        )


async def test_one_line_per_reference(session: AsyncSession) -> None:
    member_id = await new_member_id(session)
    await line(session, member_id, "t1")
    with pytest.raises(IntegrityError):
        await line(session, member_id, "t1")


async def test_extra_is_one_known_note(session: AsyncSession) -> None:
    member_id = await new_member_id(session)
    with pytest.raises(ValidationError):
        await line(session, member_id, "a", extra={"jackpot": {"description": "x"}})
    with pytest.raises(ValidationError):
        await line(session, member_id, "b", extra={"bonus": "not an object"})
    with pytest.raises(ValueError, match="at most one"):
        await line(
            session,
            member_id,
            "c",
            extra={"bonus": {"description": "x"}, "refund": {"description": "y"}},
        )
    with pytest.raises(ValueError, match="unsigned"):
        await record_statement(
            session,
            member_id=member_id,
            statement_type=StatementType.DEPOSIT,
            status=StatementStatus.SUCCESS,
            amount=-1,
            currency=Currency.THB,
            from_label="BANK",
            to_label="WALLET",
            ref_type="x",
            ref_id=1,
        )

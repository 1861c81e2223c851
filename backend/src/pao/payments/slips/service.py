"""Slip deposits: accept an upload, verify it with the bank, credit the wallet exactly once.

The upload is a small saga, because the bank is called in between and no database
transaction may stay open across that call (wave rule; SQLite serialises writers):

1. *decode* (no transaction): the file is checked by content and its mini QR read;
2. *accept* (transaction 1): the image is stored and a :class:`Slip` row recorded PENDING;
   an unreadable slip is recorded FAILED at once; otherwise the transfer's
   ``(sending_bank, reference)`` is *claimed* in :class:`SlipClaim` (unique). A second upload
   of the same transfer, even at the same instant, hits the unique index (on PostgreSQL it
   waits for the first transaction, on SQLite writers are serialised) → SLIP_REFNO_DUPLICATED;
3. *verify* (no transaction): the slip verifier (``PAO_SLIP_VERIFIER``: Pao's own dialect or
   a real provider, :mod:`pao.payments.slips.port`) is asked about the transfer;
4. *settle* (transaction 2): the slip row is locked ``FOR UPDATE`` and, if still PENDING,
   judged: credited (ledger ``bank_clearing → player_wallet``, statement line, DepositCredited)
   → SUCCESS, or FAILED with a reason, which releases the claim. Providers show account
   numbers masked: :mod:`pao.payments.slips.matching` judges the visible digits, and a slip
   whose accounts it cannot tell apart fails UNKNOW_ERROR for staff review, never credited.

The upload's statements are prebuilt and run through :mod:`pao.core.executor` (on PostgreSQL on
the driver, in the session's transaction; ADR 0014), as the other money paths' are: the slip
and its claim are inserted with ``ON CONFLICT DO NOTHING`` (a lost race is an empty answer,
not an error that needs a savepoint), the slip row is written once when judged (what the bank
said together with the outcome), and the upload asks the bank straight after transaction 1,
from what that transaction wrote, without reading the slip back.

Recovery: a crash or an unreachable bank between 2 and 4 leaves the slip PENDING with its
claim held. :func:`reconcile_pending_slips` (a PeriodicJob) re-runs 3–4 for PENDING slips
older than a minute (re-reading the stored image when the provider needs the QR text) and
gives up with UNKNOW_ERROR after :data:`GIVE_UP_AFTER`. Step 4 is
idempotent (status checked under the row lock), so a slip settles once whoever runs it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import anyio
import structlog
from sqlalchemy import bindparam, delete, func, inspect, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.core import executor, metrics
from pao.core.inserts import insert_unless_present, update_now
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.events import DepositCredited, publish
from pao.kit.idempotency import IdempotencyKeyReused
from pao.kit.money import Currency
from pao.kit.pagination import PageRequest
from pao.kit.states import transition_now
from pao.kit.storage import FileStore
from pao.ledger.models import AccountKind
from pao.ledger.service import credit_wallet
from pao.payments.accounts import ReceivingAccount, ReceivingKind
from pao.payments.slips.decoder import (
    MAX_BYTES,
    InvalidSlipFile,
    SlipQr,
    SlipReadError,
    decode_slip,
    sniff_extension,
)
from pao.payments.slips.exceptions import SlipInvalidFile, SlipNotFound, SlipUploadFail
from pao.payments.slips.matching import Fit, receiver_fit, sender_fit
from pao.payments.slips.models import (
    REVIEWABLE_REASONS,
    SLIP_TRANSITIONS,
    LookupOutcome,
    Slip,
    SlipClaim,
    SlipReason,
    SlipReview,
    SlipStatus,
)
from pao.payments.slips.port import (
    SlipQuery,
    SlipRefused,
    SlipVerifier,
    VerifiedTransfer,
    VerifierUnavailable,
)
from pao.site.service import is_slip_upload_closed
from pao.site.settings import load_site_settings
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import WALLET_LABEL, record_statement

log = structlog.get_logger(__name__)

# The statement line of a credited slip is ("slip", slip id).
STATEMENT_REF = "slip"
RETRY_AFTER = timedelta(minutes=1)
GIVE_UP_AFTER = timedelta(hours=1)
RECONCILE_BATCH = 20


@dataclass(frozen=True, slots=True)
class Payer:
    """What a slip is judged against and credited to: its member's wallet currency and
    registered bank account."""

    member_id: int
    currency: Currency
    bank_code: str
    bank_account_no: str


@dataclass(frozen=True)
class SlipContext:
    """What the saga needs besides a request: its own transactions, the bank, the store."""

    sessionmaker: async_sessionmaker[AsyncSession]
    verifier: SlipVerifier
    file_store: FileStore


# --- Prebuilt statements (built once; pao.core.executor compiles each once per dialect) -----

_slips = Slip.__table__
_claims = SlipClaim.__table__
# Every column of a slip, in the order executor.attach zips a row with.
_SLIP_COLUMNS = [prop.columns[0] for prop in inspect(Slip).column_attrs]


# The slip, unless the member's Idempotency-Key has one already (a racing retry won).
_INSERT_SLIP = insert_unless_present(
    _slips, unique=["member_id", "idempotency_key"], returning=_SLIP_COLUMNS
)
# The transfer's claim, unless another slip holds it (SLIP_REFNO_DUPLICATED).
_CLAIM = insert_unless_present(
    _claims, unique=["sending_bank", "reference"], returning=[_claims.c.id]
)
_RELEASE_CLAIM = delete(SlipClaim).where(SlipClaim.slip_id == bindparam("slip_id"))
_BY_KEY = select(Slip).where(
    Slip.member_id == bindparam("member_id"), Slip.idempotency_key == bindparam("key")
)
_LOCK = select(Slip).where(Slip.id == bindparam("slip_id")).with_for_update()
# The slip locked, with what it is judged against of its member (read, not locked): one
# round trip, and no Member object built for three values.
_LOCK_WITH_MEMBER = (
    select(Slip, Member.currency, Member.bank_code, Member.bank_account_no)
    .join(Member, Member.id == Slip.member_id)
    .where(Slip.id == bindparam("slip_id"))
    .with_for_update(of=Slip)
)
_RECEIVING = (
    select(ReceivingAccount.code, ReceivingAccount.account_no)
    .where(ReceivingAccount.active.is_(True), ReceivingAccount.kind == bindparam("kind"))
    .order_by(ReceivingAccount.id)
)


async def _fail(
    session: AsyncSession,
    slip: Slip,
    reason: SlipReason,
    *,
    actor: str = "system",
    changes: Mapping[str, Any] | None = None,
    claimed: bool = True,
    review: bool = False,
) -> None:
    """FAILED with ``reason``, written at once with ``changes`` (other columns of the slip);
    the transfer's claim is released, if the slip holds one (``claimed``). ``review`` opens
    the staff review whatever the reason."""
    also: dict[str, Any] = {**(changes or {}), "reason": reason, "settled_at": utcnow()}
    if review or reason in REVIEWABLE_REASONS:
        # Money may have arrived all the same: staff look at it (pao.payments.slips.review).
        also["review_status"] = SlipReview.OPEN
    await transition_now(
        session,
        slip,
        SlipStatus.FAILED,
        SLIP_TRANSITIONS,
        actor=actor,
        reason=str(reason),
        also=also,
    )
    if claimed:
        await executor.execute_many(session, _RELEASE_CLAIM, [{"slip_id": slip.id}])


async def _existing_for_key(
    session: AsyncSession, *, member_id: int, key: str, digest: str
) -> Slip | None:
    row = await executor.fetch_one_or_none(session, _BY_KEY, {"member_id": member_id, "key": key})
    slip = None if row is None else executor.attach(session, Slip, row)
    if slip is not None and slip.image_sha256 != digest:
        raise IdempotencyKeyReused()
    return slip


async def _accept(
    ctx: SlipContext,
    session: AsyncSession,
    *,
    member_id: int,
    currency: Currency,
    data: bytes,
    extension: str,
    digest: str,
    qr: SlipQr | None,
    read_error: str | None,
    idempotency_key: str | None,
) -> tuple[Slip, bool]:
    """Transaction 1. Returns the slip and whether it is a replay of an earlier upload."""
    async with session.begin():
        settings = await load_site_settings(session)
        if is_slip_upload_closed(settings, at=utcnow()):
            raise SlipUploadFail(reason="SLIP_UPLOAD_CLOSED")
        if idempotency_key is not None:
            # Before the image is stored: a retry stores nothing.
            earlier = await _existing_for_key(
                session, member_id=member_id, key=idempotency_key, digest=digest
            )
            if earlier is not None:
                return earlier, True
        file_key = await ctx.file_store.put(
            prefix=f"slips/{member_id}", data=data, extension=extension
        )
        row = await executor.fetch_one_or_none(
            session,
            _INSERT_SLIP[session.get_bind().dialect.name],
            {
                "member_id": member_id,
                "status": SlipStatus.PENDING,
                "file_key": file_key,
                "image_sha256": digest,
                "idempotency_key": idempotency_key,
                "sending_bank": qr.sending_bank if qr else None,
                "reference": qr.reference if qr else None,
                "amount": 0,
                "currency": currency,
                "created_at": utcnow(),
            },
        )
        if row is None:
            # The same Idempotency-Key raced us and won: answer with its slip.
            assert idempotency_key is not None
            earlier = await _existing_for_key(
                session, member_id=member_id, key=idempotency_key, digest=digest
            )
            assert earlier is not None
            return earlier, True
        slip = executor.attach(session, Slip, row)
        actor = f"member:{member_id}"
        if qr is None:
            reason = SlipReason(read_error or "CANNOT_READ_CROPPED_IMAGE")
            await _fail(session, slip, reason, actor=actor, claimed=False)
            return slip, False
        claim = await executor.fetch_one_or_none(
            session,
            _CLAIM[session.get_bind().dialect.name],
            {
                "sending_bank": qr.sending_bank,
                "reference": qr.reference,
                "slip_id": slip.id,
                "created_at": utcnow(),
            },
        )
        if claim is None:
            await _fail(session, slip, SlipReason.SLIP_REFNO_DUPLICATED, actor=actor, claimed=False)
        return slip, False


async def upload_slip(
    ctx: SlipContext,
    session: AsyncSession,
    *,
    member_id: int,
    currency: Currency,
    data: bytes,
    idempotency_key: str | None,
) -> Slip:
    """Accept, verify and settle one upload of ``member_id`` (whose wallet is in ``currency``);
    returns the slip as it stands (PENDING only when the bank could not be asked: the
    reconciler finishes it).

    ``session`` has no transaction open (the request's, once committed): each step begins and
    commits its own on it, and between them it holds no connection (the bank is called with
    no transaction open). One session for the whole upload instead of one per step: setting
    a session up and closing it costs ≈ 0.2 CPU ms (measured), as much as a statement."""
    assert not session.in_transaction()
    extension = sniff_extension(data)
    if extension is None or len(data) > MAX_BYTES:
        raise SlipInvalidFile()
    qr: SlipQr | None = None
    read_error: str | None = None
    try:
        _, qr = await anyio.to_thread.run_sync(decode_slip, data)
    except InvalidSlipFile:
        raise SlipInvalidFile() from None
    except SlipReadError as exc:
        read_error = exc.reason
    digest = hashlib.sha256(data).hexdigest()
    slip, replay = await _accept(
        ctx,
        session,
        member_id=member_id,
        currency=currency,
        data=data,
        extension=extension,
        digest=digest,
        qr=qr,
        read_error=read_error,
        idempotency_key=idempotency_key,
    )
    if replay or slip.status != SlipStatus.PENDING:
        return slip
    # Transaction 1 has just written it PENDING with its transfer: no need to read it back.
    assert slip.sending_bank is not None
    assert slip.reference is not None
    query = SlipQuery(slip.sending_bank, slip.reference, qr.payload if qr else None)
    return await _verify_and_settle(ctx, session, slip_id=slip.id, query=query)


async def verify_and_settle(ctx: SlipContext, *, slip_id: int) -> Slip:
    """Steps 3 and 4 for one slip, if it is still PENDING (the reconciler)."""
    async with ctx.sessionmaker() as session:
        async with session.begin():
            slip = await session.get(Slip, slip_id)
            assert slip is not None
        pending = slip.status == SlipStatus.PENDING
        sending_bank, reference = slip.sending_bank, slip.reference
        if not pending or sending_bank is None or reference is None:
            return slip
        payload = await _stored_payload(ctx, slip) if ctx.verifier.needs_payload else None
        query = SlipQuery(sending_bank, reference, payload)
        return await _verify_and_settle(ctx, session, slip_id=slip_id, query=query)


async def _stored_payload(ctx: SlipContext, slip: Slip) -> str | None:
    """The QR text of a stored slip image (providers that take it), or None if it is gone."""
    try:
        data = await ctx.file_store.get(slip.file_key)
        _, qr = await anyio.to_thread.run_sync(decode_slip, data)
    except (OSError, SlipReadError):
        return None
    if (qr.sending_bank, qr.reference) != (slip.sending_bank, slip.reference):
        return None
    return qr.payload


async def _verify_and_settle(
    ctx: SlipContext, session: AsyncSession, *, slip_id: int, query: SlipQuery
) -> Slip:
    """Ask the provider about the slip's transfer, then judge the slip under its row lock
    (only if it is still PENDING: whoever comes second finds it settled)."""
    provider = ctx.verifier.name
    refused: SlipRefused | None = None
    found: VerifiedTransfer | None = None
    try:
        found = await ctx.verifier.lookup(query)
    except VerifierUnavailable:
        slip = await _settle_unreachable(session, slip_id=slip_id, provider=provider)
        _count_outcome(slip, unreachable=True)
        return slip
    except SlipRefused as exc:
        refused = exc
    async with session.begin():
        row = await executor.fetch_one_or_none(session, _LOCK_WITH_MEMBER, {"slip_id": slip_id})
        assert row is not None
        slip = executor.attach(session, Slip, row[: len(_SLIP_COLUMNS)])
        payer = Payer(slip.member_id, *row[len(_SLIP_COLUMNS) :])
        judged = slip.status == SlipStatus.PENDING
        if judged and refused is not None:
            await _refuse(session, slip, refused, provider=provider)
        elif judged:
            await _judge(session, slip, payer, found, provider=provider)
    if judged:
        _count_outcome(slip, unreachable=False)
    return slip


def _count_outcome(slip: Slip, *, unreachable: bool) -> None:
    """One verification finished (after its commit): SUCCESS, FAILED with its reason, or the
    bank UNREACHABLE (the slip stays PENDING for the reconciler unless it was too late)."""
    outcome = "UNREACHABLE" if unreachable and slip.status == SlipStatus.PENDING else slip.status
    reason = "" if outcome != SlipStatus.FAILED or slip.reason is None else str(slip.reason)
    metrics.SLIP_VERIFICATIONS.labels(str(outcome), reason).inc()


async def _lock_slip(session: AsyncSession, slip_id: int) -> Slip:
    row = await executor.fetch_one_or_none(session, _LOCK, {"slip_id": slip_id})
    assert row is not None
    return executor.attach(session, Slip, row)


async def _settle_unreachable(session: AsyncSession, *, slip_id: int, provider: str) -> Slip:
    """The bank did not answer: stay PENDING for the reconciler, unless it is too late."""
    async with session.begin():
        slip = await _lock_slip(session, slip_id)
        if slip.status != SlipStatus.PENDING:
            return slip
        unreachable = {"bank_lookup": {**lookup_unreachable(), "provider": provider}}
        if slip.created_at <= utcnow() - GIVE_UP_AFTER:
            await _fail(session, slip, SlipReason.UNKNOW_ERROR, changes=unreachable)
        else:
            await update_now(session, slip, unreachable)
        return slip


async def _refusal(
    session: AsyncSession, slip: Slip, payer: Payer, transfer_: VerifiedTransfer
) -> tuple[SlipReason, str | None] | None:
    """Why the slip is not credited (and which account could not be told, if that is why),
    or None."""
    if transfer_.currency != payer.currency:
        return SlipReason.CURRENCY_MISMATCH, None
    accounts = await executor.fetch(session, _RECEIVING, {"kind": ReceivingKind.BANK})
    ours = [(str(code), str(account_no)) for code, account_no in accounts if account_no]
    receiver = receiver_fit(transfer_.receiver_bank, transfer_.receiver_account, ours)
    if receiver is Fit.NO:
        return SlipReason.DEST_ACC_INVALID, None
    sender = await sender_fit(
        session,
        member_id=payer.member_id,
        member_bank=payer.bank_code,
        member_account=payer.bank_account_no,
        shown_bank=transfer_.sender_bank,
        shown_account=transfer_.sender_account,
    )
    if sender is Fit.NO:
        return SlipReason.NOT_MATCH, None
    # Masked numbers that cannot be told apart: a person looks (UNKNOW_ERROR is reviewable).
    if receiver is Fit.UNCLEAR:
        return SlipReason.UNKNOW_ERROR, "receiver"
    if sender is Fit.UNCLEAR:
        return SlipReason.UNKNOW_ERROR, "sender"
    settings = await load_site_settings(session)
    window = timedelta(minutes=settings.slip_upload_within_minutes)
    # Judged against the upload time, so a slip settled late by the reconciler is not punished.
    if transfer_.transferred_at < slip.created_at - window:
        return SlipReason.EXPIRED_SLIP, None
    # The minimum of the member's own currency; none set for it: slips are not accepted in it.
    minimum = settings.slip_minimum_deposit.for_currency(payer.currency)
    if minimum is None or transfer_.amount <= 0 or transfer_.amount < minimum:
        return SlipReason.BELOW_MINIMUM_DEPOSIT, None
    return None


def _now_text() -> str:
    return utcnow().isoformat()


def lookup_unreachable() -> dict[str, object]:
    """The bank did not answer, as kept on the slip."""
    return {"outcome": LookupOutcome.UNREACHABLE, "checkedAt": _now_text()}


def lookup_answer(found: VerifiedTransfer | None) -> dict[str, object]:
    """What the bank said, as kept on the slip for the reviewer (amount in minor units)."""
    if found is None:
        return {"outcome": LookupOutcome.NOT_FOUND, "checkedAt": _now_text()}
    return {
        "outcome": LookupOutcome.FOUND,
        "checkedAt": _now_text(),
        "reference": found.reference,
        "sendingBank": found.sending_bank,
        "amount": found.amount,
        "currency": found.currency,
        "transferredAt": found.transferred_at.isoformat(),
        "senderBank": found.sender_bank,
        "senderAccount": found.sender_account,
        "receiverBank": found.receiver_bank,
        "receiverAccount": found.receiver_account,
    }


def _transfer_columns(found: VerifiedTransfer) -> dict[str, Any]:
    return {
        "amount": found.amount,
        "sender_bank": found.sender_bank[:10],
        "sender_account": found.sender_account[:30],
        "receiver_bank": found.receiver_bank[:10],
        "receiver_account": found.receiver_account[:40],
        "transferred_at": found.transferred_at,
    }


async def _refuse(
    session: AsyncSession, slip: Slip, refused: SlipRefused, *, provider: str
) -> None:
    """The provider's definite no (receiver mismatch, its duplicate flag, …): FAILED with the
    reason it maps to; what it still told about the transfer is kept for the reviewer."""
    lookup = {**lookup_answer(refused.transfer), "provider": provider, "answer": refused.answer}
    changes: dict[str, Any] = {"bank_lookup": lookup}
    if refused.transfer is not None:
        changes.update(_transfer_columns(refused.transfer))
    await _fail(session, slip, refused.reason, changes=changes, review=refused.review)


async def _judge(
    session: AsyncSession,
    slip: Slip,
    payer: Payer,
    found: VerifiedTransfer | None,
    *,
    provider: str,
) -> None:
    """Credit the slip or fail it. What the bank said is written to the slip's row together
    with the outcome (one UPDATE)."""
    changes: dict[str, Any] = {"bank_lookup": {**lookup_answer(found), "provider": provider}}
    if found is None or (found.sending_bank, found.reference) != (
        slip.sending_bank,
        slip.reference,
    ):
        await _fail(session, slip, SlipReason.INVALID_SLIP, changes=changes)
        return
    changes.update(_transfer_columns(found))
    refusal = await _refusal(session, slip, payer, found)
    if refusal is not None:
        reason, unclear = refusal
        if unclear is not None:
            changes["bank_lookup"]["unclear"] = unclear
        await _fail(session, slip, reason, changes=changes)
        return
    await credit_slip(session, slip, payer, changes=changes)


async def credit_slip(
    session: AsyncSession,
    slip: Slip,
    payer: Payer,
    *,
    actor: str | None = None,
    changes: Mapping[str, Any] | None = None,
) -> None:
    """Credit the slip's amount to its member (``payer``): ledger entry, SUCCESS, statement line and
    DepositCredited. The automatic path and a staff approval both come through here.

    ``changes`` are columns of the slip not written yet (what the bank said; the amount a
    reviewer read): they count as the slip's (the amount credited, the sending bank shown)
    and are written with SUCCESS, in the one UPDATE of the slip's row."""
    changes = changes or {}
    amount: int = changes.get("amount", slip.amount)
    sender_bank: str | None = changes.get("sender_bank", slip.sender_bank)
    currency, member_id = Currency(payer.currency), payer.member_id
    actor = actor or f"slip:{slip.id}"
    entry = await credit_wallet(
        session,
        source_kind=AccountKind.BANK_CLEARING,
        member_id=member_id,
        currency=currency,
        amount=amount,
        kind="deposit",
        actor=actor,
        memo=f"slip {slip.sending_bank}:{slip.reference}",
    )
    await transition_now(
        session,
        slip,
        SlipStatus.SUCCESS,
        SLIP_TRANSITIONS,
        actor=actor,
        also={**changes, "journal_entry_id": entry.id, "settled_at": utcnow()},
    )
    await record_statement(
        session,
        member_id=member_id,
        statement_type=StatementType.DEPOSIT,
        status=StatementStatus.SUCCESS,
        amount=amount,
        currency=currency,
        from_label=sender_bank or "BANK",
        to_label=WALLET_LABEL,
        ref_type=STATEMENT_REF,
        ref_id=slip.id,
    )
    await publish(
        session,
        DepositCredited(
            member_id=member_id,
            amount=amount,
            currency=currency,
            channel="slip",
            reference=f"{slip.sending_bank}:{slip.reference}",
        ),
    )


async def reconcile_pending_slips(ctx: SlipContext) -> int:
    """Settle PENDING slips left behind (bank unreachable, crash); returns how many."""
    async with ctx.sessionmaker() as session, session.begin():
        ids = list(
            (
                await session.execute(
                    select(Slip.id)
                    .where(
                        Slip.status == SlipStatus.PENDING,
                        Slip.created_at <= utcnow() - RETRY_AFTER,
                    )
                    .order_by(Slip.id)
                    .limit(RECONCILE_BATCH)
                    .with_for_update(skip_locked=True)
                )
            ).scalars()
        )
    for slip_id in ids:
        await verify_and_settle(ctx, slip_id=slip_id)
    return len(ids)


# --- Reading -------------------------------------------------------------------------------


async def list_slips(
    session: AsyncSession, *, member_id: int, page: PageRequest
) -> tuple[int, list[Slip]]:
    total = (
        await session.execute(
            select(func.count()).select_from(Slip).where(Slip.member_id == member_id)
        )
    ).scalar_one()
    rows = (
        await session.execute(
            select(Slip)
            .where(Slip.member_id == member_id)
            .order_by(Slip.created_at.desc(), Slip.id.desc())
            .limit(page.limit)
            .offset(page.offset)
        )
    ).scalars()
    return int(total), list(rows)


async def slip_by_reference(session: AsyncSession, *, member_id: int, reference: str) -> Slip:
    """The member's newest slip carrying ``reference``; another member's is not found."""
    slip = (
        await session.execute(
            select(Slip)
            .where(Slip.member_id == member_id, Slip.reference == reference)
            .order_by(Slip.id.desc())
            .limit(1)
        )
    ).scalar_one_or_none()
    if slip is None:
        raise SlipNotFound()
    return slip


async def owned_slip(session: AsyncSession, *, member_id: int, slip_id: int) -> Slip:
    slip = await session.get(Slip, slip_id)
    if slip is None or slip.member_id != member_id:
        raise SlipNotFound()
    return slip

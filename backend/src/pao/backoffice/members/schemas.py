"""Wire shapes of ``/api/backoffice/members`` (camelCase; amounts in major units)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, Field, StringConstraints

from pao.backoffice.members.links import LinkedMemberOut
from pao.backoffice.schemas import _Wire, _WireIn
from pao.backoffice.staff.names import shown
from pao.games.seamless.models import SeamlessRound, SeamlessTransaction, TxnKind
from pao.identity.changes import mask_account_no
from pao.identity.models import LoginSession, Member, MemberChange, MemberNote, MemberStatus
from pao.kit.money import Currency, MajorAmount
from pao.payments.slips.models import Slip
from pao.protection.schemas import LimitOut
from pao.wallet.member_search import MemberRow, MemberSort
from pao.wallet.models import Statement, Withdrawal

Reason = Annotated[str, StringConstraints(max_length=500)]
SearchText = Annotated[str, StringConstraints(max_length=100)]


class MemberQuery(_WireIn):
    q: SearchText | None = Field(
        default=None,
        description="Digits: the id (exact), or part of a phone or bank account number; "
        "other text: part of the name (any case).",
    )
    status: MemberStatus | None = None
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=25, ge=1, le=100)
    sort: MemberSort = "-id"


class MemberPageQuery(_WireIn):
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=20, ge=1, le=100)

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.limit


class MemberRowOut(_Wire):
    id: int
    phone: str
    name: str
    status: MemberStatus
    currency: Currency
    bank_code: str
    account_no_masked: str = Field(description="Only the last 4 digits.")
    balance: MajorAmount
    created_at: datetime

    @classmethod
    def of(cls, row: MemberRow) -> MemberRowOut:
        return cls(
            id=row.member.id,
            phone=row.member.phone,
            name=row.member.name,
            status=row.member.status,
            currency=row.member.currency,
            bank_code=row.member.bank_code,
            account_no_masked=mask_account_no(row.member.bank_account_no),
            balance=row.balance,
            created_at=row.member.created_at,
        )


class MemberBankOut(_Wire):
    bank_code: str
    account_name: str
    account_no_masked: str

    @classmethod
    def of(cls, member: Member) -> MemberBankOut:
        return cls(
            bank_code=member.bank_code,
            account_name=member.bank_account_name,
            account_no_masked=mask_account_no(member.bank_account_no),
        )


class MemberActiveBonusOut(_Wire):
    name: str
    turnover_required: MajorAmount
    turnover_done: MajorAmount


class MemberLoginOut(_Wire):
    at: datetime
    ip: str | None
    user_agent: str | None
    ended: bool = Field(description="Revoked (logout, password change, suspension) or expired.")

    @classmethod
    def of(cls, row: LoginSession, *, now: datetime) -> MemberLoginOut:
        return cls(
            at=row.created_at,
            ip=row.ip,
            user_agent=row.user_agent,
            ended=row.revoked_at is not None or row.expires_at <= now,
        )


class MemberDetail(_Wire):
    id: int
    phone: str
    name: str
    status: MemberStatus
    currency: Currency
    invite_code: str
    inviter_id: int | None
    source_code: str | None
    created_at: datetime
    coin: int
    bank: MemberBankOut
    balance: MajorAmount
    active_bonus: MemberActiveBonusOut | None
    bank_changed_recently: bool = Field(
        description="The bank account changed within the withdrawal hold (bankChangeHoldHours): "
        "withdrawals wait for a cashier."
    )
    recent_logins: list[MemberLoginOut]
    linked_members: list[LinkedMemberOut] = Field(
        description="Other members linked to this one (the same bank account number, holder "
        "name or device; a login address when holdLinkedAddress is on), with the reasons."
    )


class MemberBankAccountOut(_Wire):
    bank_code: str
    account_name: str
    account_no: str = Field(description="The full number (this read is audited).")


class MemberBankCorrectionIn(_WireIn):
    bank_code: Annotated[str, StringConstraints(max_length=10)]
    account_name: Annotated[str, StringConstraints(max_length=100)]
    account_no: Annotated[str, StringConstraints(max_length=30)]
    reason: Reason


class MemberReasonIn(_WireIn):
    reason: Reason = Field(description="Why; required, kept in the audit log.")


class MemberStatusOut(_Wire):
    id: int
    status: MemberStatus
    sessions_ended: int = 0


class MemberLogoutOut(_Wire):
    sessions_ended: int


class MemberPasswordResetOut(_Wire):
    temporary_password: str = Field(
        description="Shown this once; give it to the member, who logs in with it."
    )
    sessions_ended: int


class MemberGameAccountOut(_Wire):
    game_code: str
    game_name: str
    username: str
    password: str
    balance: MajorAmount | None = Field(description="Last known; null before any answer.")
    stale: bool = Field(description="The provider did not answer in time: the last known amount.")
    balance_at: datetime | None


class MemberNoteIn(_WireIn):
    body: Annotated[str, StringConstraints(max_length=2000)]


class MemberNoteOut(_Wire):
    id: int
    author: str = Field(description="The author's login.")
    author_name: str = Field(description="The author's display name (else the login).")
    author_id: int | None
    body: str
    created_at: datetime

    @classmethod
    def of(cls, note: MemberNote, names: dict[str, str]) -> MemberNoteOut:
        return cls(
            id=note.id,
            author=note.author,
            author_name=names.get(note.author, note.author),
            author_id=note.author_id,
            body=note.body,
            created_at=note.created_at,
        )


class MemberChangeOut(_Wire):
    id: int
    kind: str
    old_value: str | None
    new_value: str | None
    ip: str | None
    user_agent: str | None
    created_at: datetime

    @classmethod
    def of(cls, change: MemberChange) -> MemberChangeOut:
        return cls.model_validate(change, from_attributes=True)


class MemberStatementOut(_Wire):
    id: int
    type: str
    status: str
    from_label: str
    to_label: str
    amount: MajorAmount
    currency: Currency
    created_at: datetime

    @classmethod
    def of(cls, s: Statement) -> MemberStatementOut:
        return cls(
            id=s.id,
            type=s.statement_type,
            status=s.status,
            from_label=s.from_label,
            to_label=s.to_label,
            amount=s.amount,
            currency=s.currency,
            created_at=s.created_at,
        )


class MemberSlipOut(_Wire):
    id: int
    status: str
    reason: str | None
    amount: MajorAmount
    currency: Currency
    reference: str | None
    sender_bank: str | None
    created_at: datetime
    settled_at: datetime | None

    @classmethod
    def of(cls, s: Slip) -> MemberSlipOut:
        return cls(
            id=s.id,
            status=s.status,
            reason=s.reason,
            amount=s.amount,
            currency=s.currency,
            reference=s.reference,
            sender_bank=s.sender_bank,
            created_at=s.created_at,
            settled_at=s.settled_at,
        )


class MemberWithdrawalOut(_Wire):
    id: int
    amount: MajorAmount
    currency: Currency
    status: str
    bank_code: str
    account_no_masked: str
    reason: str | None
    created_at: datetime
    decided_at: datetime | None
    decided_by: str | None = Field(description="How the decision was signed (staff:<login> …).")
    decided_by_name: str | None = Field(description="The deciding staff member's display name.")

    @classmethod
    def of(cls, w: Withdrawal, names: dict[str, str]) -> MemberWithdrawalOut:
        return cls(
            id=w.id,
            amount=w.amount,
            currency=w.currency,
            status=w.status,
            bank_code=w.bank_code,
            account_no_masked=mask_account_no(w.bank_account_no),
            reason=w.reason,
            created_at=w.created_at,
            decided_at=w.decided_at,
            decided_by=w.decided_by,
            decided_by_name=shown(w.decided_by, names),
        )


# ----- seamless play (the member's rounds and transactions per provider) ---------------------

Provider = Annotated[str, StringConstraints(min_length=1, max_length=20)]


class SeamlessRoundQuery(_WireIn):
    provider: Provider | None = Field(default=None, description="A seamless provider (hub88).")
    since: AwareDatetime | None = Field(
        default=None, alias="from", description="Opened at or after; with a time zone."
    )
    until: AwareDatetime | None = Field(
        default=None, alias="to", description="Opened before (exclusive); with a time zone."
    )
    state: Literal["open", "closed"] | None = Field(
        default=None, description="Open rounds (the provider has not closed them) or closed."
    )
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=20, ge=1, le=100)


class SeamlessTxnQuery(_WireIn):
    provider: Provider | None = None
    since: AwareDatetime | None = Field(
        default=None, alias="from", description="At or after; with a time zone."
    )
    until: AwareDatetime | None = Field(
        default=None, alias="to", description="Before (exclusive); with a time zone."
    )
    round: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = Field(
        default=None, description="One round's transactions (the provider's round id)."
    )
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=20, ge=1, le=100)


class SeamlessRoundOut(_Wire):
    id: int
    member_id: int
    provider: str
    round_id: str
    game_code: str
    currency: Currency
    bets: MajorAmount = Field(description="Stakes taken, less those rolled back.")
    wins: MajorAmount
    net: MajorAmount = Field(description="wins − bets: the member's result in the round.")
    opened_at: datetime
    closed_at: datetime | None = Field(description="None: the provider has not closed it.")

    @classmethod
    def of(cls, r: SeamlessRound) -> SeamlessRoundOut:
        return cls(
            id=r.id,
            member_id=r.member_id,
            provider=r.provider,
            round_id=r.round_id,
            game_code=r.game_code,
            currency=r.currency,
            bets=r.bets,
            wins=r.wins,
            net=r.wins - r.bets,
            opened_at=r.opened_at,
            closed_at=r.closed_at,
        )


class SeamlessTxnOut(_Wire):
    id: int
    provider: str
    kind: TxnKind
    txn_id: str = Field(description="The provider's transaction id.")
    round_id: str
    game_code: str
    currency: Currency
    amount: MajorAmount = Field(
        description="A rollback's is the stake it gave back (0: its bet never came, refused)."
    )
    reference_id: str | None = Field(description="A win's bet, a rollback's target.")
    rolled_back: bool = Field(description="A bet a rollback undid.")
    created_at: datetime

    @classmethod
    def of(cls, t: SeamlessTransaction) -> SeamlessTxnOut:
        return cls(
            id=t.id,
            provider=t.provider,
            kind=t.kind,
            txn_id=t.txn_id,
            round_id=t.round_id,
            game_code=t.game_code,
            currency=t.currency,
            amount=t.amount,
            reference_id=t.reference_id,
            rolled_back=t.rolled_back,
            created_at=t.created_at,
        )


# The member's player protection (members/protection.py).


class LimitChangeOut(_Wire):
    kind: Literal["deposit", "loss"]
    period: str
    amount: MajorAmount | None = Field(description="null: the limit removed.")
    effective_from: datetime = Field(alias="effectiveFrom")
    created_at: datetime = Field(alias="createdAt")


class ExclusionRowOut(_Wire):
    kind: Literal["timeout", "self_exclusion"]
    starts_at: datetime = Field(alias="startsAt")
    ends_at: datetime | None = Field(alias="endsAt", description="null: indefinite.")
    end_requested_at: datetime | None = Field(alias="endRequestedAt")


class ProtectionHitOut(_Wire):
    kind: Literal["deposit_limit", "loss_limit", "exclusion"]
    outcome: Literal["refused", "credited"] = Field(
        description="refused: nothing moved; credited: a payment already made, credited over "
        "the limit and flagged for staff."
    )
    channel: str
    amount: MajorAmount | None = Field(description="null: not known when refused (a slip).")
    reference: str | None
    at: datetime


class MemberProtectionOut(_Wire):
    excluded_until: datetime | None = Field(
        alias="excludedUntil",
        description="Deposits, play and bonuses closed until then (null: open; the far future "
        "for a self-exclusion the member has not asked to end).",
    )
    limits: list[LimitOut]
    loss_limits: list[LimitOut] = Field(
        alias="lossLimits", description="deposited: the loss so far (deposits less withdrawals)."
    )
    limit_changes: list[LimitChangeOut] = Field(alias="limitChanges")
    exclusions: list[ExclusionRowOut]
    hits: list[ProtectionHitOut] = Field(
        description="The latest 50 refusals and flagged credits, newest first."
    )

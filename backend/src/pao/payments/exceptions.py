"""Refusals of the operator's side of deposits (staff review, matching by hand, receiving
accounts), one class per catalogue code::

    AppError
     ├── BadRequest (400)
     │    ├── DepositCurrencyMismatch    DEPOSIT_CURRENCY_MISMATCH   the payment's currency is
     │    │                                                          not the member's
     │    └── ReceivingAccountInvalid    RECEIVING_ACCOUNT_INVALID   + ``field``: a bank or gateway
     │                                                               code, mode, PromptPay id … that
     │                                                               the deposit lookup cannot use
     ├── NotFound (404)
     │    ├── DepositNotFound            DEPOSIT_NOT_FOUND           no such slip or payment
     │    └── ReceivingAccountNotFound   RECEIVING_ACCOUNT_NOT_FOUND
     ├── Conflict (409)
     │    ├── DepositAlreadySettled      DEPOSIT_ALREADY_SETTLED     not (or no longer) waiting
     │    │                                                          for a decision
     │    ├── DepositTransferCredited    DEPOSIT_TRANSFER_CREDITED   the slip's transfer was
     │    │                                                          credited through another slip
     │    └── PayerIsAnotherMember       PAYER_IS_ANOTHER_MEMBER     a match by hand to a member
     │                                                               who is not the payer account's
     │                                                               owner, unconfirmed
     └── Unprocessable (422)
          └── MatchNoteRequired          DEPOSIT_NOTE_REQUIRED       a match by hand without a note
"""

from __future__ import annotations

from pao.core.errors import BadRequest, Conflict, NotFound, Unprocessable


class DepositCurrencyMismatch(BadRequest):
    code = "DEPOSIT_CURRENCY_MISMATCH"


class ReceivingAccountInvalid(BadRequest):
    code = "RECEIVING_ACCOUNT_INVALID"

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(field=field)
        # For the operator's shell (pao ops prints str(exc) for ValueError-like refusals).
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.code} ({self.extra['field']}: {self.detail})"


class DepositNotFound(NotFound):
    code = "DEPOSIT_NOT_FOUND"


class ReceivingAccountNotFound(NotFound):
    code = "RECEIVING_ACCOUNT_NOT_FOUND"


class DepositAlreadySettled(Conflict):
    code = "DEPOSIT_ALREADY_SETTLED"


class DepositTransferCredited(Conflict):
    code = "DEPOSIT_TRANSFER_CREDITED"


class PayerIsAnotherMember(Conflict):
    """The payer's account is another member's registered account (``ownerIds``: whose, or
    the candidates of a masked account) and the match was not confirmed."""

    code = "PAYER_IS_ANOTHER_MEMBER"


class MatchNoteRequired(Unprocessable):
    code = "DEPOSIT_NOTE_REQUIRED"

    def __init__(self) -> None:
        super().__init__(field="note")

"""The pure registration rules: phone, account name, bank account."""

from __future__ import annotations

import pytest

from pao.identity.exceptions import (
    BankAccountNameEng,
    InvalidBank,
    InvalidUserInfo,
    KeyMissing,
    PhoneNumberRequire10Digit,
)
from pao.identity.service import (
    check_bank_account,
    check_password,
    check_phone,
    is_english_name,
    normalize_account_name,
)


def test_phone() -> None:
    assert check_phone(" 0812345678 ", lao_mode=False) == "0812345678"
    for bad in ["081234567", "08123456789", "08 1234567", "٠٨١٢٣٤٥٦٧٨", ""]:
        with pytest.raises(PhoneNumberRequire10Digit):
            check_phone(bad, lao_mode=False)
    assert check_phone("20551234", lao_mode=True) == "20551234"
    assert check_phone("8562055123456", lao_mode=True) == "8562055123456"
    for bad in ["2055123", "85620551234567"]:
        with pytest.raises(PhoneNumberRequire10Digit):
            check_phone(bad, lao_mode=True)


def test_password_length() -> None:
    check_password("123456")
    with pytest.raises(InvalidUserInfo):
        check_password("12345")


@pytest.mark.parametrize(
    ("raw", "normalized", "english"),
    [
        ("  john   smith ", "JOHN SMITH", True),
        ("John", "JOHN", True),
        ("สมชาย ใจดี", "สมชาย ใจดี", False),
        ("JOHN SMITH2", "JOHN SMITH2", False),
        ("JÖRG MÜLLER", "JÖRG MÜLLER", False),
        ("MARY-JANE", "MARY-JANE", False),
        ("john\tsmith", "JOHN SMITH", True),
    ],
)
def test_account_names(raw: str, normalized: str, english: bool) -> None:
    assert normalize_account_name(raw) == normalized
    assert is_english_name(raw) is english


def test_bank_account() -> None:
    account = check_bank_account(bank_code="ktb", account_name="a  b", account_no="123 456-7890")
    assert (account.bank.code, account.account_name, account.account_no) == (
        "KTB",
        "A B",
        "1234567890",
    )
    with pytest.raises(BankAccountNameEng):
        check_bank_account(bank_code="KTB", account_name="สมชาย", account_no="1234567890")
    with pytest.raises(InvalidBank):
        check_bank_account(bank_code="XXX", account_name="A", account_no="1234567890")
    with pytest.raises(InvalidBank):
        check_bank_account(bank_code="SCB", account_name="A", account_no="123456789")
    assert (
        check_bank_account(
            bank_code="BCEL", account_name="ສົມ", account_no="010120000123456001"
        ).account_no
        == "010120000123456001"
    )
    with pytest.raises(KeyMissing):
        check_bank_account(bank_code="SCB", account_name=" ", account_no="1234567890")

"""Wire amounts: JSON numbers with at most 2 decimals become exact integer minor units."""

from decimal import Decimal

import pytest
from pydantic import BaseModel, ValidationError

from pao.kit.money import MajorAmount, WireAmount, to_major, to_minor


class Body(BaseModel):
    amount: WireAmount


class Out(BaseModel):
    amount: MajorAmount


@pytest.mark.parametrize(
    ("raw", "minor"),
    [
        ("10", 1000),
        ("10.5", 1050),
        ("10.01", 1001),
        ("0.1", 10),
        ("0", 0),
        ("1234567.89", 123456789),
        ("9999999999999.99", 999999999999999),
    ],
)
def test_valid_json_numbers_convert_exactly(raw: str, minor: int) -> None:
    assert Body.model_validate_json(f'{{"amount": {raw}}}').amount == minor


@pytest.mark.parametrize(
    "raw",
    [
        '"10"',
        "true",
        "10.001",
        "-1",
        "1e400",
        "NaN",
        "Infinity",
        "null",
        "[]",
        "{}",
        "10000000000000.01",
    ],
)
def test_bad_amounts_are_refused(raw: str) -> None:
    with pytest.raises(ValidationError):
        Body.model_validate_json(f'{{"amount": {raw}}}')


def test_python_floats_and_decimals_follow_the_same_rules() -> None:
    assert Body(amount=0.3).amount == 30
    with pytest.raises(ValidationError):
        Body(amount=Decimal("0.005"))
    with pytest.raises(ValidationError):
        Body(amount=float("nan"))


def test_responses_are_major_units() -> None:
    assert Out(amount=123456789).model_dump_json() == '{"amount":1234567.89}'
    assert Out(amount=5).model_dump(mode="json") == {"amount": 0.05}


def test_round_trip() -> None:
    for minor in (0, 1, 99, 100, 12345, 10**15):
        assert to_minor(Decimal(str(to_major(minor)))) == minor

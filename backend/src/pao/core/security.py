"""Password hashing (argon2id) and opaque secret tokens.

Tokens handed to clients are random; the database keeps only their SHA-256, so a leaked
database does not leak usable sessions. Unknown users are checked against a dummy hash so that
login timing does not reveal which phone numbers are registered.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from functools import lru_cache

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from pao.core.settings import get_settings


@lru_cache
def _hasher() -> PasswordHasher:
    s = get_settings()
    return PasswordHasher(
        time_cost=s.argon2_time_cost,
        memory_cost=s.argon2_memory_kib,
        parallelism=s.argon2_parallelism,
        type=Type.ID,
    )


@lru_cache
def _dummy_hash() -> str:
    return _hasher().hash(secrets.token_hex(16))


def hash_password(password: str) -> str:
    return _hasher().hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    """Constant-work check: an absent hash still costs one argon2 verification."""
    try:
        return (
            _hasher().verify(password_hash or _dummy_hash(), password) and password_hash is not None
        )
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _hasher().check_needs_rehash(password_hash)


def new_token(nbytes: int = 32) -> str:
    return secrets.token_urlsafe(nbytes)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hmac_digest(secret: str, value: str) -> str:
    return hmac.new(secret.encode(), value.encode(), hashlib.sha256).hexdigest()

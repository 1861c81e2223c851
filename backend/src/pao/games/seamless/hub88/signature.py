"""``X-Hub88-Signature``: RSA PKCS#1 v1.5 over SHA-256 of the exact raw body, standard Base64.

Hub88 signs the wallet calls it sends with its private key (Pao verifies with Hub88's public
key); Pao signs its Games API calls with its own private key. A key setting holds PEM text or
the path of a PEM file. The sandbox's defaults are Hub88's published demo key pair
(coingaming/Hub88-Examples), the same for both roles: never for production.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

HEADER = "X-Hub88-Signature"
_SANDBOX_KEYS = Path(__file__).resolve().parents[3] / "sandbox" / "hub88"
SANDBOX_PRIVATE_KEY = _SANDBOX_KEYS / "demo_private.pem"
SANDBOX_PUBLIC_KEY = _SANDBOX_KEYS / "demo_public.pem"


def _pem(value: str) -> bytes:
    text = value.strip()
    if text.startswith("-----BEGIN"):
        return text.encode()
    return Path(text).read_bytes()


def load_public(value: str) -> rsa.RSAPublicKey:
    return _public_from_pem(_pem(value))


def load_private(value: str) -> rsa.RSAPrivateKey:
    return _private_from_pem(_pem(value))


# Parsed once per process and PEM text: loading a private key checks it (≈ 40 ms of CPU), and
# every app built in a process (each test builds one) loads the same pair. Keys are immutable.
@cache
def _public_from_pem(pem: bytes) -> rsa.RSAPublicKey:
    key = serialization.load_pem_public_key(pem)
    if not isinstance(key, rsa.RSAPublicKey):
        raise ValueError("the Hub88 public key is not an RSA key")
    return key


@cache
def _private_from_pem(pem: bytes) -> rsa.RSAPrivateKey:
    key = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValueError("the Hub88 private key is not an RSA key")
    return key


def sign(key: rsa.RSAPrivateKey, body: bytes) -> str:
    return base64.b64encode(key.sign(body, padding.PKCS1v15(), hashes.SHA256())).decode()


def verify(key: rsa.RSAPublicKey, body: bytes, header: str | None) -> bool:
    """Whether ``header`` is a valid signature of ``body`` (the raw bytes, never re-encoded)."""
    if not header or len(header) > 1024:
        return False
    try:
        signature = base64.b64decode(header, validate=True)
        key.verify(signature, body, padding.PKCS1v15(), hashes.SHA256())
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Keys:
    """Hub88's public key (verifies its wallet calls) and Pao's private key (signs Pao's)."""

    hub88_public: rsa.RSAPublicKey
    operator_private: rsa.RSAPrivateKey

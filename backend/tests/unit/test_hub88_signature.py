"""X-Hub88-Signature against Hub88's published vectors (coingaming/Hub88-Examples): Pao's
signing reproduces them byte for byte and its verification accepts them, and refuses a body or
signature changed by one byte."""

from __future__ import annotations

from pathlib import Path

from pao.games.seamless.hub88.signature import (
    SANDBOX_PRIVATE_KEY,
    load_private,
    load_public,
    sign,
    verify,
)

VECTORS = Path(__file__).resolve().parents[1] / "vectors" / "hub88"


def _vectors() -> list[tuple[bytes, str]]:
    lines = (VECTORS / "signatures.csv").read_text().splitlines()[1:]
    return [(data.encode(), signature) for data, signature in (ln.split(";", 1) for ln in lines)]


def test_published_vectors_sign_and_verify() -> None:
    private = load_private(str(SANDBOX_PRIVATE_KEY))
    public = load_public((VECTORS / "public.pem").read_text())
    vectors = _vectors()
    assert len(vectors) == 5
    for data, signature in vectors:
        assert len(signature) == 344
        assert sign(private, data) == signature
        assert verify(public, data, signature)
        assert not verify(public, data + b" ", signature)
        flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
        assert not verify(public, data, flipped)
    assert not verify(public, b"test", None)
    assert not verify(public, b"test", "not base64!")

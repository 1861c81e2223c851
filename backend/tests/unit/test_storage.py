"""The local file store: streamed uploads are bounded while they are copied."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from pao.kit.storage import LocalFileStore, TooLarge, read_chunks


async def _chunks(count: int, size: int = 1000) -> AsyncIterator[bytes]:
    for index in range(count):
        yield bytes([index % 256]) * size


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


async def test_a_stream_within_its_bound_is_stored(tmp_path: Path) -> None:
    store = LocalFileStore(tmp_path)
    stored = await store.put_stream(
        prefix="chat/1", chunks=_chunks(5), extension="png", max_bytes=5000
    )
    assert stored.size == 5000
    assert stored.key.startswith("chat/1/")
    assert stored.key.endswith(".png")
    data = await store.get(stored.key)
    assert data == b"".join(bytes([i]) * 1000 for i in range(5))
    assert _files(tmp_path) == [tmp_path / stored.key]


async def test_a_stream_over_its_bound_stops_and_leaves_nothing(tmp_path: Path) -> None:
    store = LocalFileStore(tmp_path)
    pulled = 0

    async def endless() -> AsyncIterator[bytes]:
        nonlocal pulled
        while True:
            pulled += 1
            yield b"x" * 1000

    with pytest.raises(TooLarge):
        await store.put_stream(prefix="chat/1", chunks=endless(), extension="png", max_bytes=4500)
    assert pulled == 5  # it stopped at the chunk that passed the bound
    assert _files(tmp_path) == []


async def test_read_chunks_reads_a_file_a_chunk_at_a_time() -> None:
    class Reader:
        def __init__(self, data: bytes) -> None:
            self.data = data
            self.sizes: list[int] = []

        async def read(self, size: int = -1) -> bytes:
            self.sizes.append(size)
            out, self.data = self.data[:size], self.data[size:]
            return out

    reader = Reader(b"a" * 10)
    assert [c async for c in read_chunks(reader, 4)] == [b"aaaa", b"aaaa", b"aa"]
    assert reader.sizes == [4, 4, 4, 4]

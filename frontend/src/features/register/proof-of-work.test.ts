import { describe, expect, it } from 'vitest';
import { sha256Words, solveProof, solves } from './proof-of-work';

const hex = (words: Uint32Array) => Array.from(words, (w) => w.toString(16).padStart(8, '0')).join('');

describe('proof of work', () => {
  it('hashes as SHA-256 does (FIPS 180-2 vectors, one and two blocks)', () => {
    expect(hex(sha256Words('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256Words(''))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256Words('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('finds a nonce the server accepts, and a wrong one fails', async () => {
    const nonce = await solveProof('challenge-1', 12);
    expect(solves('challenge-1', nonce, 12)).toBe(true);
    expect(hex(sha256Words(`challenge-1:${nonce}`)).slice(0, 3)).toBe('000');
  });
});

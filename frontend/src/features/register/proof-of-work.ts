/**
 * The proof of work that opens the OTP reserve once the hourly SMS total is spent (backend
 * pao.identity.otp_proof): a nonce such that SHA-256("{challenge}:{nonce}") starts with `bits`
 * zero bits. Plain synchronous SHA-256 (Web Crypto's digest is asynchronous per call, which
 * makes a quarter of a million hashes take many seconds); the search yields to the page every
 * few thousand tries so that the form stays responsive.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
// Typed arrays read as number | undefined under noUncheckedIndexedAccess; every index here is
// in range by construction.
const at = (words: Uint32Array, i: number): number => words[i] ?? 0;

/** SHA-256 of an ASCII string, as eight 32-bit words. */
export function sha256Words(text: string): Uint32Array {
  const length = text.length;
  const blocks = Math.ceil((length + 9) / 64);
  const words = new Uint32Array(blocks * 16);
  for (let i = 0; i < length; i += 1) words[i >> 2] = at(words, i >> 2) | ((text.charCodeAt(i) & 0xff) << (24 - (i % 4) * 8));
  words[length >> 2] = at(words, length >> 2) | (0x80 << (24 - (length % 4) * 8));
  words[words.length - 1] = length * 8;
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < words.length; block += 16) {
    for (let t = 0; t < 16; t += 1) w[t] = at(words, block + t);
    for (let t = 16; t < 64; t += 1) {
      const x = at(w, t - 15);
      const y = at(w, t - 2);
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w[t] = (at(w, t - 16) + s0 + at(w, t - 7) + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = [at(h, 0), at(h, 1), at(h, 2), at(h, 3), at(h, 4), at(h, 5), at(h, 6), at(h, 7)];
    for (let t = 0; t < 64; t += 1) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + at(K, t) + at(w, t)) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((value, i) => {
      h[i] = at(h, i) + value;
    });
  }
  return h;
}

/** Whether the hash starts with `bits` zero bits (bits ≤ 32: the first word is enough). */
export function solves(challenge: string, nonce: string, bits: number): boolean {
  const first = at(sha256Words(`${challenge}:${nonce}`), 0);
  return bits >= 32 ? first === 0 : first >>> (32 - bits) === 0;
}

/** The first nonce (a decimal count) that solves the challenge. */
export async function solveProof(challenge: string, bits: number): Promise<string> {
  for (let n = 0; ; n += 1) {
    if (solves(challenge, String(n), bits)) return String(n);
    if (n % 4096 === 4095) await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

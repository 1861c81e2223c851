import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const stored = new Map<string, string>();

async function freshDeviceId() {
  vi.resetModules();
  return (await import('./device-id')).deviceId;
}

describe('deviceId', () => {
  beforeEach(() => {
    stored.clear();
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
      removeItem: (key: string) => void stored.delete(key),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is made once and kept for the next page', async () => {
    const first = (await freshDeviceId())();
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.get('pao-device')).toBe(first);
    expect((await freshDeviceId())()).toBe(first);
  });

  it('replaces a kept value of the wrong shape', async () => {
    stored.set('pao-device', 'x');
    const id = (await freshDeviceId())();
    expect(id).not.toBe('x');
    expect(stored.get('pao-device')).toBe(id);
  });

  it('lives as long as the page without storage', async () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    });
    const deviceId = await freshDeviceId();
    expect(deviceId()).toBe(deviceId());
  });
});

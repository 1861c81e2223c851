import { describe, expect, it } from 'vitest';
import { actionOf, moveCursor } from './queue-keys';

/** Unit tests run in Node: an element is what `closest` finds above it (its own selector set). */
function element(inside: string[], editable = false): EventTarget {
  return {
    isContentEditable: editable,
    closest: (selector: string) => (selector.split(',').some((s) => inside.includes(s.trim())) ? {} : null),
  } as unknown as EventTarget;
}
const page = element([]);

function press(key: string, target: EventTarget | null = page, extra: Partial<KeyboardEvent> = {}) {
  return actionOf({ key, target, ctrlKey: false, metaKey: false, altKey: false, isComposing: false, ...extra });
}

describe('queue shortcuts', () => {
  it('maps keys to actions', () => {
    expect(press('j')).toBe('next');
    expect(press('k')).toBe('previous');
    expect(press('c')).toBe('claim');
    expect(press('a')).toBe('approve');
    expect(press('A')).toBe('approve');
    expect(press('n')).toBe('claimNext');
    expect(press('Enter')).toBe('open');
    expect(press('?')).toBe('help');
    expect(press('Escape')).toBe('close');
    expect(press('x')).toBeNull();
  });

  it('never fires while typing, in a dialog or with a modifier', () => {
    for (const target of [element(['input']), element(['textarea']), element(['select']), element(['[role="dialog"]', 'button']), element(['dialog']), element([], true)])
      expect(press('a', target)).toBeNull();
    expect(press('c', page, { ctrlKey: true })).toBeNull();
    expect(press('c', page, { metaKey: true })).toBeNull();
    expect(press('j', page, { isComposing: true })).toBeNull();
    // Enter on a button is the button's own; the letters still work there.
    const button = element(['button']);
    expect(press('Enter', button)).toBeNull();
    expect(press('c', button)).toBe('claim');
  });

  it('moves the cursor within the page', () => {
    expect(moveCursor(-1, 3, 'next')).toBe(0);
    expect(moveCursor(-1, 3, 'previous')).toBe(2);
    expect(moveCursor(0, 3, 'previous')).toBe(0);
    expect(moveCursor(2, 3, 'next')).toBe(2);
    expect(moveCursor(1, 3, 'next')).toBe(2);
    expect(moveCursor(0, 0, 'next')).toBe(-1);
  });
});

import { createElement, Suspense } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';

vi.mock('@/lib/i18n', () => ({ loadStrings: () => Promise.resolve() }));

const screen = () => createElement('p', null, 'screen');

describe('lazyPage', () => {
  it('renders a screen whose module is in at once, without suspending', async () => {
    const page = lazyPage('src/app/routes/x.tsx', () => Promise.resolve({ default: screen }));
    await page.load();
    // No Suspense boundary: a suspending component would make this throw.
    expect(renderToStaticMarkup(createElement(page.Component))).toBe('<p>screen</p>');
  });

  it('suspends on a screen still on its way', () => {
    const page = lazyPage('src/app/routes/x.tsx', () => new Promise(() => undefined));
    const tree = createElement(Suspense, { fallback: 'loading' }, createElement(page.Component));
    expect(renderToStaticMarkup(tree)).toBe('loading');
  });
});

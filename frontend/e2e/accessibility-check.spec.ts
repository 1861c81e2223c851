/**
 * The browser tests' accessibility check (support/fixtures.ts expectAccessible) itself: it must
 * fail on a serious violation, in the page and inside a frame, or every screen's check could
 * pass by checking nothing.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './support/fixtures';

const unnamedButton = '<button type="button"><svg width="10" height="10"></svg></button>';
const documentOf = (body: string) =>
  `<!doctype html><html lang="en"><head><title>check</title></head><body><main>${body}</main></body></html>`;

/** `body` as a new document on the app's origin, as every checked page is (axe's frames answer
 * their own origin only; a new navigation each time, as the app's pages are). */
async function show(page: Page, body: string): Promise<void> {
  await page.goto('/healthz');
  await page.setContent(documentOf(body));
}

test('the accessibility check fails on a violation in the page and in a frame, passes a clean page', async ({ page }, info) => {
  test.skip(info.project.name !== 'phone-th', 'the check is the same in every project');
  await show(page, '<h1>Fine</h1><button type="button">Named</button>');
  await expectAccessible(page, 'clean page');

  await show(page, `<h1>Broken</h1>${unnamedButton}`);
  await expect(expectAccessible(page, 'page')).rejects.toThrow(/button-name \(critical\)/);

  const framed = documentOf(`<h1>Framed</h1>${unnamedButton}`).replaceAll('"', '&quot;');
  await show(page, `<h1>Outer</h1><iframe title="inner" srcdoc="${framed}"></iframe>`);
  await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Framed' })).toBeVisible();
  await expect(expectAccessible(page, 'frame')).rejects.toThrow(/button-name \(critical\)/);
});

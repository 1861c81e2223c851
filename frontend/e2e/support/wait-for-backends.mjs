/**
 * The last of playwright.config.ts's web servers: waits until every test backend answers its
 * /healthz (the URLs are its arguments), says so on stdout, and stays up until the run ends.
 *
 * Playwright starts its web servers one after another, each waited for before the next starts:
 * three backends, each migrating and filling its database before serving, took most of the
 * minute before the first test. The backends are started without waiting (each says it is
 * starting, which is all Playwright waits for), so they prepare at the same time, and this
 * waits for them all.
 */
const urls = process.argv.slice(2);

/** @param {string} url */
async function up(url) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

for (;;) {
  const answers = await Promise.all(urls.map(up));
  if (answers.every(Boolean)) break;
  await new Promise((resolve) => setTimeout(resolve, 200));
}
console.log('pao-e2e: all backends up');
// Kept alive: Playwright stops its web servers at the end of the run.
setInterval(() => undefined, 1 << 30);

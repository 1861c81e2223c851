/**
 * Page buttons for a paginated list: first page, pages from `before` below to `after` above the
 * current one, last page, with an ellipsis where pages are skipped. An ellipsis that would hide a
 * single page shows that page instead.
 */
export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / perPage));
}

export function paginationRange(
  current: number,
  count: number,
  before = 3,
  after = 1,
): PageItem[] {
  if (count <= 1) return [1];
  const page = Math.min(Math.max(1, current), count);
  let left = Math.max(1, page - before);
  let right = Math.min(count, page + after);
  if (left === 3) left = 2; // only page 2 would hide: show it
  if (right === count - 2) right = count - 1;
  const items: PageItem[] = [];
  if (left > 1) {
    items.push(1);
    if (left > 2) items.push('ellipsis-start');
  }
  for (let p = left; p <= right; p += 1) items.push(p);
  if (right < count) {
    if (right < count - 1) items.push('ellipsis-end');
    items.push(count);
  }
  return items;
}

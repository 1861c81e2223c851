import { describe, expect, it } from 'vitest';
import { auditApiQuery, readAuditView, writeAuditView } from './audit-query';

describe('audit view in the URL', () => {
  it('reads defaults from an empty query', () => {
    expect(readAuditView(new URLSearchParams())).toEqual({
      staffId: '',
      action: '',
      objectType: '',
      objectId: '',
      from: '',
      to: '',
      hideSignIns: false,
      page: 1,
      limit: 50,
      sort: '-at',
    });
  });

  it('round-trips a filtered, sorted, paged view', () => {
    const query = 'staffId=3&action=staff.create&from=2026-11-01&to=2026-11-24&sort=action&limit=100&page=2';
    const view = readAuditView(new URLSearchParams(query));
    expect(view).toMatchObject({ staffId: '3', action: 'staff.create', sort: 'action', limit: 100, page: 2 });
    expect(readAuditView(writeAuditView(view))).toEqual(view);
  });

  it('drops malformed values instead of sending them', () => {
    const view = readAuditView(new URLSearchParams('staffId=x&from=yesterday&sort=ip&limit=7&page=-1'));
    expect(view).toMatchObject({ staffId: '', from: '', sort: '-at', limit: 50, page: 1 });
    expect(writeAuditView(view).toString()).toBe('');
  });

  it('sends whole local days, the end exclusive', () => {
    const query = auditApiQuery(readAuditView(new URLSearchParams('from=2026-11-01&to=2026-11-01')));
    expect(query.from).toBe(new Date(2026, 10, 1).toISOString());
    expect(query.to).toBe(new Date(2026, 10, 2).toISOString());
    expect(query.action).toBeUndefined();
    expect(query.hideSignIns).toBeUndefined();
  });

  it('keeps "hide sign-ins" in the link and sends it', () => {
    const view = readAuditView(new URLSearchParams('hideSignIns=1&action=withdrawal.approve'));
    expect(view.hideSignIns).toBe(true);
    expect(writeAuditView(view).toString()).toBe('action=withdrawal.approve&hideSignIns=1');
    expect(auditApiQuery(view).hideSignIns).toBe('true');
  });
});

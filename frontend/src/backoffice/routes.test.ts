import { describe, expect, it } from 'vitest';
import { BACK_OFFICE_ROUTES, routesFor } from './routes';

describe('back-office route table', () => {
  it('shows a reader the dashboard, the members and their own sessions', () => {
    expect(routesFor(['own.account', 'dashboard.read', 'members.read']).map((r) => r.path)).toEqual(['dashboard', 'members', 'sessions']);
  });

  it('shows an owner every screen, in the table order', () => {
    const all = BACK_OFFICE_ROUTES.map((route) => route.permission);
    expect(routesFor(all).map((r) => r.path)).toEqual(['dashboard', 'reports', 'members', 'withdrawals', 'deposits', 'adjustments', 'accounts', 'providers', 'promotions', 'wheel', 'content', 'settings', 'chat', 'audit', 'staff', 'sessions']);
  });

  it('gives every route its own path', () => {
    const paths = BACK_OFFICE_ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

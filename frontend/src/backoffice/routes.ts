/**
 * The back office's screens, one row each: its path under /backoffice, the permission it needs
 * (the navigation hides what the role lacks; the server refuses it anyway), its entry in the
 * sidebar, and its lazily loaded module. A new screen (members, withdrawals, deposits…) is one
 * more row here; the shell, the guard and the navigation follow from the table.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { IconName } from '@/components/ui/Icon';
import type { Permission } from './lib/permissions';

export type NavLabel =
  | 'bo.nav.dashboard'
  | 'bo.nav.reports'
  | 'bo.nav.members'
  | 'bo.nav.withdrawals'
  | 'bo.nav.deposits'
  | 'bo.nav.adjustments'
  | 'bo.nav.accounts'
  | 'bo.nav.providers'
  | 'bo.nav.promotions'
  | 'bo.nav.wheel'
  | 'bo.nav.content'
  | 'bo.nav.settings'
  | 'bo.nav.chat'
  | 'bo.nav.audit'
  | 'bo.nav.staff'
  | 'bo.nav.sessions';

export type BackOfficeRoute = {
  path: string;
  permission: Permission;
  nav: { label: NavLabel; icon: IconName };
  Screen: LazyExoticComponent<ComponentType>;
};

export const BACK_OFFICE_ROUTES: readonly BackOfficeRoute[] = [
  // First: the landing screen after login (App's fallback is the first allowed route).
  {
    path: 'dashboard',
    permission: 'dashboard.read',
    nav: { label: 'bo.nav.dashboard', icon: 'home' },
    Screen: lazy(() => import('./features/dashboard/DashboardPage')),
  },
  {
    path: 'reports',
    permission: 'reports.read',
    nav: { label: 'bo.nav.reports', icon: 'list' },
    Screen: lazy(() => import('./features/reports/ReportsPage')),
  },
  {
    path: 'members',
    permission: 'members.read',
    nav: { label: 'bo.nav.members', icon: 'user' },
    Screen: lazy(() => import('./features/members/MembersScreen')),
  },
  {
    path: 'withdrawals',
    permission: 'withdrawals.read',
    nav: { label: 'bo.nav.withdrawals', icon: 'withdraw' },
    Screen: lazy(() => import('./features/withdrawals/WithdrawalsPage')),
  },
  {
    path: 'deposits',
    permission: 'deposits.read',
    nav: { label: 'bo.nav.deposits', icon: 'doc' },
    Screen: lazy(() => import('./features/deposits/DepositsPage')),
  },
  {
    path: 'adjustments',
    permission: 'members.credit',
    nav: { label: 'bo.nav.adjustments', icon: 'transfer' },
    Screen: lazy(() => import('./features/adjustments/AdjustmentsScreen')),
  },
  {
    path: 'accounts',
    permission: 'accounts.read',
    nav: { label: 'bo.nav.accounts', icon: 'doc' },
    Screen: lazy(() => import('./features/accounts/AccountsPage')),
  },
  {
    path: 'providers',
    permission: 'providers.read',
    nav: { label: 'bo.nav.providers', icon: 'play' },
    Screen: lazy(() => import('./features/providers/ProvidersPage')),
  },
  {
    path: 'promotions',
    permission: 'promotions.manage',
    nav: { label: 'bo.nav.promotions', icon: 'gift' },
    Screen: lazy(() => import('./features/promotions/PromotionsPage')),
  },
  {
    path: 'wheel',
    permission: 'promotions.manage',
    nav: { label: 'bo.nav.wheel', icon: 'refresh' },
    Screen: lazy(() => import('./features/wheel/WheelPage')),
  },
  {
    path: 'content',
    permission: 'promotions.manage',
    nav: { label: 'bo.nav.content', icon: 'edit' },
    Screen: lazy(() => import('./features/content/ContentPage')),
  },
  {
    path: 'settings',
    permission: 'settings.manage',
    nav: { label: 'bo.nav.settings', icon: 'flag' },
    Screen: lazy(() => import('./features/settings/SettingsPage')),
  },
  {
    path: 'chat',
    permission: 'chat.use',
    nav: { label: 'bo.nav.chat', icon: 'chat' },
    Screen: lazy(() => import('./screens/SupportScreen')),
  },
  {
    path: 'audit',
    permission: 'audit.read',
    nav: { label: 'bo.nav.audit', icon: 'doc' },
    Screen: lazy(() => import('./features/audit/AuditPage')),
  },
  {
    path: 'staff',
    permission: 'staff.manage',
    nav: { label: 'bo.nav.staff', icon: 'user' },
    Screen: lazy(() => import('./features/staff/StaffPage')),
  },
  {
    path: 'sessions',
    permission: 'own.account',
    nav: { label: 'bo.nav.sessions', icon: 'lock' },
    Screen: lazy(() => import('./features/sessions/SessionsPage')),
  },
];

/** The routes a staff member holding `permissions` may open, in the sidebar's order. */
export function routesFor(permissions: readonly Permission[]): BackOfficeRoute[] {
  return BACK_OFFICE_ROUTES.filter((route) => permissions.includes(route.permission));
}

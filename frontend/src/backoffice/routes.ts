/**
 * The back office's screens, one row each: its path under /backoffice, the permission it needs
 * (the navigation hides what the role lacks; the server refuses it anyway), its entry in the
 * sidebar, and its lazily loaded module. A new screen (members, withdrawals, deposits…) is one
 * more row here; the shell, the guard and the navigation follow from the table.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { IconName } from '@/components/ui/Icon';
import type { Permission } from './lib/permissions';

export type NavLabel = 'bo.nav.audit' | 'bo.nav.staff' | 'bo.nav.sessions' | 'bo.nav.members' | 'bo.nav.chat';

export type BackOfficeRoute = {
  path: string;
  permission: Permission;
  nav: { label: NavLabel; icon: IconName };
  Screen: LazyExoticComponent<ComponentType>;
};

export const BACK_OFFICE_ROUTES: readonly BackOfficeRoute[] = [
  {
    path: 'members',
    permission: 'members.read',
    nav: { label: 'bo.nav.members', icon: 'user' },
    Screen: lazy(() => import('./features/members/MembersScreen')),
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
    path: 'chat',
    permission: 'chat.use',
    nav: { label: 'bo.nav.chat', icon: 'chat' },
    Screen: lazy(() => import('./screens/SupportScreen')),
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

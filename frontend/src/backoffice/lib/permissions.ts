/** The back office's permission and role names, as the contract declares them (roles.py). */
import type { components } from '@/api/schema.gen';

export type Permission = components['schemas']['Permission'];
export type Role = components['schemas']['Role'];
export type Me = components['schemas']['MeOut'];

export const ROLES: readonly Role[] = ['owner', 'manager', 'cashier', 'support', 'viewer'];

export function may(me: Pick<Me, 'permissions'> | undefined, permission: Permission): boolean {
  return me?.permissions.includes(permission) ?? false;
}

import type { z } from 'zod';
import type { StaffLoginAnswer } from '@tp/contract/schemas/admin';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** The signed-in staff member as /api/admin/login answers it. */
export type StaffMember = z.infer<typeof StaffLoginAnswer>['staff'];

interface StaffSessionState {
  token: string | null;
  staff: StaffMember | null;
  signIn: (token: string, staff: StaffMember) => void;
  signOut: () => void;
}

/** The staff session: kept apart from the trader session (its own storage key and token). */
export const useStaffSession = create<StaffSessionState>()(
  persist(
    (set) => ({
      token: null,
      staff: null,
      signIn: (token, staff) => set({ token, staff }),
      signOut: () => set({ token: null, staff: null }),
    }),
    { name: 'staff_session', storage: createJSONStorage(() => sessionStorage) },
  ),
);

/** Whether the signed-in member may use a screen meant for these roles (admin may use all). */
export const hasRole = (staff: StaffMember | null, roles: readonly string[]): boolean =>
  Boolean(staff && (staff.roles.includes('admin') || roles.length === 0 || roles.some((r) => staff.roles.includes(r))));

import type { ReactNode } from 'react';

/** The narrow column the sign-in forms sit in, on a phone and on a desktop. */
export function AuthCard({ children }: { children: ReactNode }) {
  return <div className="mx-auto flex w-full max-w-md flex-col gap-4 px-4 py-6">{children}</div>;
}

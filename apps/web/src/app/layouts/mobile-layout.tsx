import type { ReactNode } from 'react';
import { FooterTabBar } from './footer-tab-bar';

/** Phone layout: one narrow column, footer tabs on the cached pages. */
export function MobileLayout({ children, tabBar }: { children: ReactNode; tabBar: boolean }) {
  return (
    <div className={`mx-auto min-h-dvh max-w-[480px] bg-bg ${tabBar ? 'pb-[calc(3.5rem+env(safe-area-inset-bottom))]' : ''}`}>
      <main>{children}</main>
      {tabBar && <FooterTabBar />}
    </div>
  );
}

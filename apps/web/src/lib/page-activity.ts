import { createContext, useContext } from 'react';

/** False inside a kept-alive page that is hidden because another page is shown. */
export const PageActivityContext = createContext(true);

export const usePageActive = (): boolean => useContext(PageActivityContext);

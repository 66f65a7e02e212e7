import { useEffect, useState } from 'react';

/** §4/§9: below 992 px wide the console is in mobile mode. */
export const MOBILE_BREAKPOINT = 992;

const isMobileWidth = () => window.innerWidth < MOBILE_BREAKPOINT;

export function useIsMobile(): boolean {
  const [mobile, setMobile] = useState(isMobileWidth);
  useEffect(() => {
    const onResize = () => setMobile(isMobileWidth());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return mobile;
}

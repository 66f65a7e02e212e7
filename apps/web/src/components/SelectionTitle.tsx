import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * antd copies every column title into a hidden measuring row (`aria-hidden`) of a scrolling
 * table; the select-all checkbox there would be a focusable element hidden from screen readers
 * (axe `aria-hidden-focus`). The copy is made inert; the real one in the header is untouched.
 * (The copy is cloned without refs, hence a component with its own.)
 */
function InertInMeasureRow({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    if (ref.current?.closest('.ant-table-measure-row')) ref.current.inert = true;
  });
  return <span ref={ref}>{children}</span>;
}

/** `rowSelection.columnTitle` of a scrolling table with row selection. */
export function selectionTitle(checkbox: ReactNode): ReactNode {
  return <InertInMeasureRow>{checkbox}</InertInMeasureRow>;
}

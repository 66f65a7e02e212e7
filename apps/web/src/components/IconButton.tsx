import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** What the button does, read out and shown as a tooltip (the icon has no text). */
  label: string;
  children: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

const STYLE = {
  display: 'inline-flex',
  alignItems: 'center',
  gap: 6,
  padding: 0,
  border: 'none',
  background: 'none',
  color: 'inherit',
  font: 'inherit',
  fontSize: 18,
  lineHeight: 1,
  cursor: 'pointer',
} as const;

/**
 * A bare icon in the navbar that is a real button: reachable with Tab, pressed with Enter or
 * Space, named for screen readers. antd's Dropdown and Popover attach their handlers to it.
 */
export function IconButton({ label, children, style, ref, ...rest }: Props) {
  return (
    <button type="button" aria-label={label} title={label} ref={ref} style={{ ...STYLE, ...style }} {...rest}>
      {children}
    </button>
  );
}

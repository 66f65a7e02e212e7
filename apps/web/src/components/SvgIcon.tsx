import { createElement, type CSSProperties, type ReactNode } from 'react';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';

function draw(node: AbstractNode, key?: number): ReactNode {
  return createElement(node.tag, { key, ...node.attrs }, node.children?.map((child, i) => draw(child, i)));
}

/**
 * One of antd's outlined icons (`@ant-design/icons-svg/es/asn/…`) drawn without antd's icon
 * component and its context: the login page's icons. Decorative (hidden from screen readers).
 */
export function SvgIcon({ icon, style }: { icon: IconDefinition; style?: CSSProperties }) {
  const root = typeof icon.icon === 'function' ? icon.icon('currentColor', 'currentColor') : icon.icon;
  return (
    <span aria-hidden="true" className="console-icon" style={style}>
      {draw({ ...root, attrs: { ...root.attrs, width: '1em', height: '1em', fill: 'currentColor' } })}
    </span>
  );
}

import type { MouseEvent } from 'react';
import { Button } from 'antd';
import { DownOutlined, RightOutlined } from '@ant-design/icons';

/**
 * A table row's open / close control (antd `expandable.expandIcon`): a named button that says
 * whether the row is open, so that keyboards and screen readers reach what the row holds.
 */
export function expandButton<T>(labels: { expand: string; collapse: string }, testId: (record: T) => string) {
  return function ExpandIcon({ expanded, onExpand, record }: { expanded: boolean; onExpand: (record: T, e: MouseEvent<HTMLElement>) => void; record: T }) {
    return (
      <Button
        type="text"
        size="small"
        icon={expanded ? <DownOutlined /> : <RightOutlined />}
        aria-label={expanded ? labels.collapse : labels.expand}
        aria-expanded={expanded}
        data-testid={testId(record)}
        onClick={(e) => onExpand(record, e)}
      />
    );
  };
}

import { Card, Col, Statistic } from 'antd';
import { Link } from 'react-router';

/** One figure of the agent view: its title links to the list it counts (when `to` is given). */
export function Figure({ title, value, to, testId }: { title: string; value: number | undefined; to?: string; testId?: string }) {
  return (
    <Col xs={12} sm={8} md={6} lg={4}>
      <Card size="small" data-testid={testId}>
        <Statistic title={to ? <Link to={to}>{title}</Link> : title} value={value ?? 0} loading={value === undefined} />
      </Card>
    </Col>
  );
}

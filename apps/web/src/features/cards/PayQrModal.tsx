import { useEffect, useState } from 'react';
import { Alert, Button, Modal, QRCode, Result, Space, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePayQr, useOrder, useSimulatePay, yuan } from './api';

/** Seconds left until `iso`, ticking every second. */
function useCountdown(iso: string | undefined) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return iso ? Math.max(0, Math.floor((new Date(iso).getTime() - now) / 1000)) : 0;
}

const mmss = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

/**
 * The payment QR code of an unpaid order (the provider's code_url) with its amount and a
 * countdown to the order's deadline. The order is polled, so the payment shows when it arrives;
 * with the simulated provider a button plays the customer.
 */
export function PayQrModal({ orderId, onClose }: { orderId: number | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const qr = usePayQr(orderId);
  const order = useOrder(orderId, 3000);
  const simulate = useSimulatePay();
  const left = useCountdown(qr.data?.payBefore);
  const status = order.data?.status;
  return (
    <Modal open={orderId !== undefined} title={t('cards:pay.title')} onCancel={onClose} footer={null} destroyOnHidden data-testid="pay-modal">
      {status === 'paid' ? (
        <Result
          status="success"
          title={<span data-testid="pay-success">{t('cards:pay.paid')}</span>}
          subTitle={order.data?.items.map((i) => `${i.iccid}: ${i.expiresBefore ?? '—'} → ${i.expiresAfter ?? '—'}`).join(' · ')}
        />
      ) : qr.data ? (
        <Space orientation="vertical" align="center" style={{ width: '100%' }}>
          <QRCode value={qr.data.codeUrl} size={220} status={left === 0 ? 'expired' : 'active'} data-testid="pay-qr" />
          <Typography.Text type="secondary" copyable style={{ fontSize: 12 }} data-testid="pay-code-url">
            {qr.data.codeUrl}
          </Typography.Text>
          <Space size="large">
            <Statistic title={t('cards:orders.amount')} value={yuan(qr.data.amountCents)} valueStyle={{ color: '#cf1322' }} data-testid="pay-amount" />
            <Statistic title={t('cards:pay.timeLeft')} value={mmss(left)} data-testid="pay-countdown" />
          </Space>
          <Typography.Text>{t('cards:pay.scan')}</Typography.Text>
          {qr.data.provider === 'simulated' && (
            <Button onClick={() => orderId && simulate.mutate(orderId)} loading={simulate.isPending} data-testid="pay-simulate">
              {t('cards:pay.simulate')}
            </Button>
          )}
        </Space>
      ) : (
        qr.isError && <Alert type="error" showIcon title={t('cards:pay.unavailable')} />
      )}
    </Modal>
  );
}

import i18n from './i18n';
import { removeToken } from './cookies';
import { feedbackModal } from './feedback';

let open = false;

/**
 * §8: the session is gone (codes 50008/50012/50014 or a SESSION_ENDED push). Offers a fresh login;
 * Cancel stays on the page. Only one box is shown at a time however many calls fail.
 */
export function showLogoutConfirm(): void {
  if (open) return;
  open = true;
  feedbackModal().confirm({
    title: i18n.t('errors:logoutConfirm.title'),
    content: i18n.t('errors:logoutConfirm.content'),
    okText: i18n.t('errors:logoutConfirm.relogin'),
    cancelText: i18n.t('common:cancel'),
    okButtonProps: { 'data-testid': 'logout-confirm-relogin' } as Record<string, string>,
    cancelButtonProps: { 'data-testid': 'logout-confirm-cancel' } as Record<string, string>,
    onOk: () => {
      removeToken();
      window.location.reload();
    },
    afterClose: () => {
      open = false;
    },
  });
}

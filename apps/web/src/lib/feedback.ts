import { message as staticMessage, Modal as StaticModal, type App } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;
type MessageApi = AppApi['message'];
/** Only `confirm` is used; the static and hook versions differ in their return type. */
type ConfirmApi = { confirm: (config: Parameters<AppApi['modal']['confirm']>[0]) => unknown };

/**
 * antd's message and modal bound to the app's ConfigProvider (theme, locale). Code outside React
 * (http and live clients) shows feedback through these; `FeedbackBridge` fills them in at start.
 * Before that the static functions are used.
 */
let messageApi: MessageApi = staticMessage;
let modalApi: ConfirmApi = StaticModal;

export function bindFeedback(api: AppApi): void {
  messageApi = api.message;
  modalApi = api.modal;
}

export function feedbackMessage(): MessageApi {
  return messageApi;
}

export function feedbackModal(): ConfirmApi {
  return modalApi;
}

/**
 * A small message line for the pages that run before antd is loaded (the login page): the same
 * `error` / `success` / `warning` calls as antd's message, drawn with a few DOM nodes. Once the
 * signed-in frame has loaded antd, `lib/feedback` hands the calls to antd's message instead.
 */
export type ToastContent = string | { content: string; duration?: number };

export interface MessageLike {
  error(content: ToastContent): void;
  success(content: ToastContent): void;
  warning(content: ToastContent): void;
}

type Kind = keyof MessageLike;

/** Icon, colour (AA on white) and how it is announced. */
const KINDS: Record<Kind, { icon: string; color: string; role: 'alert' | 'status' }> = {
  error: { icon: '✕', color: '#C43B3D', role: 'alert' },
  warning: { icon: '!', color: '#8A5A00', role: 'alert' },
  success: { icon: '✓', color: '#368111', role: 'status' },
};

const DEFAULT_SECONDS = 3;

function container(): HTMLElement {
  let box = document.getElementById('console-toasts');
  if (!box) {
    box = document.createElement('div');
    box.id = 'console-toasts';
    box.className = 'console-toasts';
    document.body.appendChild(box);
  }
  return box;
}

function show(kind: Kind, input: ToastContent): void {
  const { content, duration = DEFAULT_SECONDS } = typeof input === 'string' ? { content: input } : input;
  const spec = KINDS[kind];
  const toast = document.createElement('div');
  toast.className = `console-toast console-toast-${kind}`;
  toast.setAttribute('role', spec.role);
  const icon = document.createElement('span');
  icon.className = 'console-toast-icon';
  icon.setAttribute('aria-hidden', 'true');
  icon.style.background = spec.color;
  icon.textContent = spec.icon;
  const text = document.createElement('span');
  // Text only, never markup: server messages are shown as they are, escaped.
  text.textContent = content;
  toast.append(icon, text);
  container().appendChild(toast);
  if (duration > 0) setTimeout(() => toast.remove(), duration * 1000);
}

export const toast: MessageLike = {
  error: (c) => show('error', c),
  success: (c) => show('success', c),
  warning: (c) => show('warning', c),
};

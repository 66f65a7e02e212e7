import { useEffect, useSyncExternalStore } from 'react';
import type { App } from 'antd';
import { toast, type MessageLike } from './toast';

type AppApi = ReturnType<typeof App.useApp>;
/** Only `confirm` is used; the static and hook versions differ in their return type. */
type ConfirmConfig = Parameters<AppApi['modal']['confirm']>[0];
type ConfirmApi = { confirm: (config: ConfirmConfig) => unknown };

/**
 * Feedback for code outside React (http and live clients, CRUD helpers): messages and the confirm
 * box. antd is not part of the login page's download, so until the app's antd host is bound
 * (`FeedbackHost`, loaded once a session exists) messages are shown by `lib/toast`, and a confirm
 * box asks for the host and waits for it.
 */
let bound: AppApi | null = null;
let pendingConfirms: ConfirmConfig[] = [];
let hostWanted = false;
const listeners = new Set<() => void>();

function wantHost(): void {
  if (hostWanted) return;
  hostWanted = true;
  listeners.forEach((l) => l());
}

/** Whether the antd feedback host should be on the page (stays true once asked for). */
export function useFeedbackHostWanted(signedIn: boolean): boolean {
  const asked = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => hostWanted,
  );
  // Kept after a logout: messages shown while leaving the signed-in frame stay on screen.
  useEffect(() => {
    if (signedIn) wantHost();
  }, [signedIn]);
  return asked || signedIn;
}

/** The host's antd App: messages and confirm boxes from now on go through it. */
export function bindFeedback(api: AppApi): () => void {
  bound = api;
  const waiting = pendingConfirms;
  pendingConfirms = [];
  waiting.forEach((config) => api.modal.confirm(config));
  return () => {
    if (bound === api) bound = null;
  };
}

export function feedbackMessage(): MessageLike {
  return bound?.message ?? toast;
}

export function feedbackModal(): ConfirmApi {
  if (bound) return bound.modal;
  return {
    confirm: (config) => {
      pendingConfirms.push(config);
      wantHost();
    },
  };
}

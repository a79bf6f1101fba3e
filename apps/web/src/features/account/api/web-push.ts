import { useEffect } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf, OutputOf } from '@tp/contract/endpoint';
import { pushSettings, pushSettingsUpdate, pushSubscribe, pushUnsubscribe, pushVapidKey } from '@tp/contract/endpoints/web-push';
import type { PushEvent } from '@tp/contract/schemas/web-push';
import { call, queryKey } from '../../../lib/api-client';

export type PushSettings = OutputOf<typeof pushSettings>;

/** Whether this browser can receive Web Push at all (iPhone: only once the app is on the home screen). */
export const pushSupported = (): boolean =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The service worker the app registered (production builds), registered here when it has not been yet. */
async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (existing) return existing;
  await navigator.serviceWorker.register('/sw.js');
  return navigator.serviceWorker.ready;
}

/** This device's push subscription, if it has one. */
export async function deviceSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

const keyBytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
};

const subscriptionInput = (subscription: PushSubscription) => subscription.toJSON() as InputOf<typeof pushSubscribe>;

/** Tells the server about this device's subscription (again: it keeps the trader's current language). */
export const registerDevice = (subscription: PushSubscription) =>
  call(pushSubscribe, subscriptionInput(subscription), { showErrorMessage: false });

/** Asks the browser's permission, subscribes with the server's key and registers the device. */
export async function enableDevicePush(): Promise<'granted' | 'denied'> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'denied';
  const registration = await serviceWorker();
  const { public_key } = await call(pushVapidKey, undefined, { showErrorMessage: false });
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
  await registerDevice(subscription);
  return 'granted';
}

/** Stops pushes to this device: unsubscribed in the browser and forgotten by the server. */
export async function disableDevicePush(): Promise<void> {
  const subscription = await deviceSubscription();
  if (!subscription) return;
  await call(pushUnsubscribe, { endpoint: subscription.endpoint }, { showErrorMessage: false });
  await subscription.unsubscribe();
}

/**
 * At logout: the browser drops this device's subscription, so the next trader of this browser gets
 * none of the previous one's notifications (the push service then answers 410 and the server forgets it).
 */
export async function dropDeviceSubscription(): Promise<void> {
  await (await deviceSubscription())?.unsubscribe();
}

/**
 * Keeps the server on the language the trader uses now: this device's subscription is registered
 * again whenever the signed-in trader opens the app or changes language (nothing without one).
 */
export function useDevicePushLanguage(loggedIn: boolean, lang: string): void {
  useEffect(() => {
    if (!loggedIn || !pushSupported() || Notification.permission !== 'granted') return;
    void deviceSubscription()
      .then((subscription) => subscription && registerDevice(subscription))
      .catch(() => undefined);
  }, [loggedIn, lang]);
}

export const pushSettingsQueryKey = queryKey(pushSettings);

export const usePushSettings = () =>
  useQuery(queryOptions({ queryKey: pushSettingsQueryKey, queryFn: () => call(pushSettings, undefined, { showErrorMessage: false }) }));

/** Switches one event on or off for every device of the trader. */
export function useSwitchPushEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ event, on }: { event: PushEvent; on: boolean }) => call(pushSettingsUpdate, { events: { [event]: on ? 1 : 0 } }),
    onSuccess: (settings) => queryClient.setQueryData(pushSettingsQueryKey, settings),
  });
}

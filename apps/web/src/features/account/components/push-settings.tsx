import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useQueryClient } from '@tanstack/react-query';
import { PUSH_EVENTS, type PushEvent } from '@tp/contract/schemas/web-push';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast-store';
import {
  deviceSubscription,
  disableDevicePush,
  enableDevicePush,
  pushSettingsQueryKey,
  pushSupported,
  registerDevice,
  usePushSettings,
  useSwitchPushEvent,
} from '../api/web-push';

type DeviceState = 'checking' | 'unsupported' | 'denied' | 'off' | 'on';

/** This device's push state: what the browser allows and whether it is subscribed. */
function useDeviceState(): [DeviceState, (next: DeviceState) => void] {
  const [state, setState] = useState<DeviceState>('checking');
  const queryClient = useQueryClient();
  useEffect(() => {
    let live = true;
    void (async () => {
      if (!pushSupported()) return live && setState('unsupported');
      const subscription = await deviceSubscription().catch(() => null);
      if (subscription && Notification.permission === 'granted') {
        // Registered again each visit: pushes follow the language the trader uses now.
        await registerDevice(subscription)
          .then((settings) => queryClient.setQueryData(pushSettingsQueryKey, settings))
          .catch(() => undefined);
        if (live) setState('on');
      } else if (live) setState(Notification.permission === 'denied' ? 'denied' : 'off');
    })();
    return () => {
      live = false;
    };
  }, [queryClient]);
  return [state, setState];
}

function eventLabel(t: TFunction, event: PushEvent): string {
  if (event === 'price_alert') return t('account.push_event_price_alert');
  if (event === 'account') return t('account.push_event_account');
  return t(`account.notice_kinds.${event}`);
}

function EventSwitches() {
  const { t } = useTranslation();
  const settings = usePushSettings();
  const change = useSwitchPushEvent();
  if (!settings.data) return null;
  return (
    <fieldset className="px-4 pt-2 pb-3">
      <legend className="pt-2 text-xs text-muted">{t('account.push_events')}</legend>
      {PUSH_EVENTS.map((event) => (
        <label key={event} className="flex min-h-11 items-center justify-between gap-3">
          <span className="text-sm">{eventLabel(t, event)}</span>
          <input
            type="checkbox"
            role="switch"
            data-push-event={event}
            checked={settings.data.events[event] === 1}
            disabled={change.isPending}
            onChange={(e) => change.mutate({ event, on: e.target.checked })}
            className="size-5 shrink-0 accent-accent"
          />
        </label>
      ))}
    </fieldset>
  );
}

/** Notifications > push on this device: turn on (asks the browser), which events, turn off. */
export function PushSettings() {
  const { t } = useTranslation();
  const [state, setState] = useDeviceState();
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();

  const turn = async (on: boolean) => {
    setBusy(true);
    try {
      if (on) setState((await enableDevicePush()) === 'granted' ? 'on' : Notification.permission === 'denied' ? 'denied' : 'off');
      else {
        await disableDevicePush();
        setState('off');
      }
      await queryClient.invalidateQueries({ queryKey: pushSettingsQueryKey });
    } catch (err) {
      toast(err instanceof Error && err.message && !/^[A-Z_]+$/.test(err.message) ? err.message : t('account.push_failed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const note =
    state === 'unsupported' ? t('account.push_unsupported') : state === 'denied' ? t('account.push_denied') : t('account.push_hint');
  return (
    <section aria-labelledby="push-title" className="border-b border-border" data-testid="push-settings">
      <div className="flex flex-wrap items-center justify-between gap-3 px-4 py-3.5">
        <span className="flex min-w-0 flex-1 flex-col">
          <span id="push-title">{t('account.push_title')}</span>
          <span className="text-xs text-muted" data-testid="push-note">
            {state === 'on' ? t('account.push_on') : note}
          </span>
        </span>
        {(state === 'off' || state === 'on') && (
          <Button variant={state === 'on' ? 'secondary' : 'primary'} disabled={busy} onClick={() => void turn(state !== 'on')}>
            {t(state === 'on' ? 'account.push_disable' : 'account.push_enable')}
          </Button>
        )}
      </div>
      {state === 'on' && <EventSwitches />}
    </section>
  );
}

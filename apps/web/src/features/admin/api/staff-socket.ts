import { useEffect, useEffectEvent } from 'react';
import { defaultSocketUrl, type SocketHandler, SocketClient, type SocketTopic } from '../../../lib/socket';
import { useStaffSession } from '../../../lib/staff-session-store';

/**
 * The back office's own socket, logged in with the staff token (the trader's socket carries the
 * trader's session). Open only while a screen listens to a staff topic.
 */
const staffSocket = new SocketClient({
  url: defaultSocketUrl,
  getToken: () => useStaffSession.getState().token,
  onSessionEnded: () => useStaffSession.getState().signOut(),
});
let listening = 0;

/** Listens to a staff topic (DESK) while the component is mounted, with the latest handler. */
export function useStaffTopic<T extends SocketTopic>(topic: T, handler: SocketHandler<T>): void {
  const onMessage = useEffectEvent(handler);
  useEffect(() => {
    listening++;
    staffSocket.start();
    const off = staffSocket.subscribe<T>(topic, (message) => onMessage(message));
    return () => {
      off();
      if (--listening === 0) staffSocket.stop();
    };
  }, [topic]);
}

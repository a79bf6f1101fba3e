import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { socket, type SocketHandler, type SocketStatus } from './socket';

export function useSocketStatus(): SocketStatus {
  return useSyncExternalStore(
    (onChange) => socket.onStatus(onChange),
    () => socket.status,
    () => 'idle',
  );
}

/** Listens to a topic while the component is mounted; the latest handler is always called. */
export function useSocketTopic(topic: string | null, handler: SocketHandler): void {
  const onMessage = useEffectEvent(handler);
  useEffect(() => {
    if (!topic) return;
    return socket.subscribe(topic, (message) => onMessage(message));
  }, [topic]);
}

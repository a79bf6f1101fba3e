import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { socket, type SocketHandler, type SocketStatus, type SocketTopic } from './socket';

export function useSocketStatus(): SocketStatus {
  return useSyncExternalStore(
    (onChange) => socket.onStatus(onChange),
    () => socket.status,
    () => 'idle',
  );
}

/** The connection is up but the server could not log the session in yet (it is being retried). */
export function useSocketLoginRetrying(): boolean {
  return useSyncExternalStore(
    (onChange) => socket.onLoginState(onChange),
    () => socket.loginRetrying,
    () => false,
  );
}

/**
 * The one way a screen hears the socket: listens to a topic while the component is mounted and calls
 * the latest handler with each message of that topic, parsed and typed by the contract's declaration.
 */
export function useSocketTopic<T extends SocketTopic>(topic: T | null, handler: SocketHandler<T>): void {
  const onMessage = useEffectEvent(handler);
  useEffect(() => {
    if (!topic) return;
    return socket.subscribe<T>(topic, (message) => onMessage(message));
  }, [topic]);
}

import { isIP } from 'node:net';

/** What a RABBITMQ_URL says beyond where to connect: the user, the vhost, whether it stays on this machine. */

/** The broker user a URL connects as (amqplib's default is guest); what the broker expects in `user_id`. */
export function brokerUserOf(url: string): string {
  return decodeURIComponent(new URL(url).username) || 'guest';
}

/** The vhost a URL opens (amqplib: no path is `/`). */
export function brokerVhostOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || '/';
}

/** True for a broker on this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackBroker(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/** The same broker and vhost as `url`, opened as another user. */
export function brokerUrlAs(url: string, user: string, password: string): string {
  const next = new URL(url);
  next.username = encodeURIComponent(user);
  next.password = encodeURIComponent(password);
  return next.toString();
}

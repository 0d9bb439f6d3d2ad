// @ts-check
// "Authorize" (an ATS whose set-up flow is an interactive login): the ATS login opens in a popup; its callback page tells this page when it is done.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.js';

/** @typedef {import('./api.js').ApiError} ApiError */

export const AUTHORIZED_MESSAGE = 'ats-login-authorized';

/**
 * Returns {start, busy, error, waiting}. `start` opens the window at once (still in the click, so no popup
 * blocker stops it), then points it at the login URL. `onFinished(true)` when the login came back,
 * `onFinished(false)` when the window was closed without it. No popup at all: the whole page goes to the
 * login and comes back to the connector page with ?authorized=1.
 * @param {string} connectorId
 * @param {(ok: boolean) => void | Promise<void>} onFinished
 */
export function useAuthorize(connectorId, onFinished) {
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState(/** @type {ApiError | null} */ (null));
  const popupRef = useRef(/** @type {Window | null} */ (null));
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;

  useEffect(() => {
    /** @param {MessageEvent} event */
    const onMessage = (event) => {
      if (event.origin !== location.origin || !event.data || event.data.type !== AUTHORIZED_MESSAGE) return;
      if (event.data.connectorId && event.data.connectorId !== connectorId) return;
      popupRef.current = null;
      setWaiting(false);
      void finishedRef.current(true);
    };
    window.addEventListener('message', onMessage);
    const watch = setInterval(() => {
      const popup = popupRef.current;
      if (popup && popup.closed) {
        popupRef.current = null;
        setWaiting(false);
        void finishedRef.current(false);
      }
    }, 500);
    return () => {
      window.removeEventListener('message', onMessage);
      clearInterval(watch);
    };
  }, [connectorId]);

  const start = async () => {
    setError(null);
    setBusy(true);
    const popup = window.open('', 'ats-login', 'popup,width=560,height=720');
    if (popup) {
      try {
        popup.document.title = 'ATS login';
        popup.document.body.textContent = 'Opening the ATS login…';
      } catch {
        /* a window of that name already shows another site */
      }
    }
    try {
      /** @type {{ authorizeUrl: string }} */
      const { authorizeUrl } = await api('POST', `/connectors/${encodeURIComponent(connectorId)}/authorize`);
      if (popup) {
        popup.location.href = authorizeUrl;
        popup.focus();
        popupRef.current = popup;
        setWaiting(true);
      } else {
        location.assign(authorizeUrl);
      }
    } catch (failure) {
      if (popup) popup.close();
      setError(/** @type {ApiError} */ (failure));
    } finally {
      setBusy(false);
    }
  };

  return { start, busy, waiting, error };
}

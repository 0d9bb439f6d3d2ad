// What the admin page's screens share that is not the API's (the API's types are admin-api.d.ts, generated):
// types only, for `// @ts-check` and JSDoc in the page's modules (never loaded by the browser).

/** A confirmation carried to the next screen (e.g. "Connected to ATS-A" after Save); shown once. */
export interface Flash {
  kind: string;
  text: string;
}

/** What every screen may use (ui.js `useApp()`). */
export interface AppContextValue {
  navigate(to: string, options?: { replace?: boolean }): void;
  announce(text: string): void;
  flash: Flash | null;
  setFlash(flash: Flash | null): void;
  signOut(message?: string): void;
}

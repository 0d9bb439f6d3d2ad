/** The vendor's login window: a plain HTML form, so tests can drive it with fetch and humans with a browser. */
export interface LoginPageModel {
  clientId: string;
  redirectUri: string;
  state?: string;
  /** PKCE (RFC 7636), carried through the form like state. */
  codeChallenge?: string;
  codeChallengeMethod?: string;
  username?: string;
  error?: string;
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

export function loginPage(m: LoginPageModel): string {
  const hidden = (name: string, value: string | undefined): string =>
    value === undefined ? '' : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>ATS-B Sandbox – Sign in</title>
<style>body{font-family:sans-serif;max-width:24rem;margin:4rem auto}label,input,button{display:block;margin:.4rem 0;width:100%}.error{color:#b00020}</style>
</head>
<body>
<main>
<h1>Sign in to ATS-B</h1>
<p>The application <strong>${escapeHtml(m.clientId)}</strong> asks to access your ATS-B account.</p>
${m.error ? `<p class="error" role="alert">${escapeHtml(m.error)}</p>` : ''}
<form method="post" action="/oauth/authorize">
${hidden('client_id', m.clientId)}
${hidden('response_type', 'code')}
${hidden('redirect_uri', m.redirectUri)}
${hidden('state', m.state)}
${hidden('code_challenge', m.codeChallenge)}
${hidden('code_challenge_method', m.codeChallengeMethod)}
<label for="username">Username</label>
<input id="username" name="username" type="text" autocomplete="username" required value="${escapeHtml(m.username ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" name="action" value="Login">Sign in</button>
</form>
</main>
</body>
</html>
`;
}

export function errorPage(title: string, detail: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ATS-B Sandbox – ${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(detail)}</p></main></body></html>
`;
}

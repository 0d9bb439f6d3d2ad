/**
 * Drives the sandbox's HTML login like a browser would, with fetch: GET the authorize URL, fill the form,
 * POST it, and return the redirect target (`redirect_uri?code=…&state=…`) without following it.
 */
export async function driveLoginForm(
  authorizeUrl: string,
  credentials: { username: string; password: string },
): Promise<string> {
  const page = await fetch(authorizeUrl, { redirect: 'follow' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`authorize page answered ${page.status}: ${html.slice(0, 200)}`);
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error('no login form on the authorize page');
  const fields = new URLSearchParams();
  for (const input of (form[2] as string).matchAll(/<input[^>]*type="hidden"[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? '';
    if (name) fields.set(name, unescapeHtml(value));
  }
  fields.set('username', credentials.username);
  fields.set('password', credentials.password);
  fields.set('action', 'Login');
  const action = new URL(unescapeHtml(form[1] as string), page.url).toString();
  const post = (url: string) =>
    fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
    });
  let posted = await post(action);
  // The vendor sends a login to the customer's data centre with a 307: a browser posts the form there again.
  for (let hops = 0; posted.status === 307 && hops < 3; hops++) {
    posted = await post(new URL(posted.headers.get('location') ?? '', action).toString());
  }
  const location = posted.headers.get('location');
  if (posted.status !== 302 || !location)
    throw new Error(`login form answered ${posted.status}, expected a 302 redirect`);
  return location;
}

function unescapeHtml(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string,
  );
}

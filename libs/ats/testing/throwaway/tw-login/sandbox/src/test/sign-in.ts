/**
 * Signs in on the Login vendor's page as a browser would, with fetch: GET the authorize URL, fill the form's
 * username and password, POST it, and answer where the vendor sends the browser back (`…?code=…&state=…`).
 */
export async function signIn(
  authorizeUrl: string,
  credentials: { username: string; password: string },
): Promise<string> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`the sign-in page answered ${page.status}: ${html.slice(0, 200)}`);
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) throw new Error('no form on the sign-in page');
  const fields = new URLSearchParams();
  for (const input of (form[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(input[1] as string, unescape(input[2] as string));
  }
  fields.set('username', credentials.username);
  fields.set('password', credentials.password);
  const posted = await fetch(new URL(form[1] as string, authorizeUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
  });
  const location = posted.headers.get('location');
  if (posted.status !== 302 || !location)
    throw new Error(`the sign-in answered ${posted.status}, not a redirect`);
  return location;
}

function unescape(value: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_all, name: string) => entities[name] as string);
}

/** The small page a browser sees when an ATS-B login cannot be completed (no redirect: it says why). */
export function oauthProblemPage(title: string, explanation: string, adminPagePath: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; line-height: 1.5">
<h1 style="font-size: 1.4rem">${escapeHtml(title)}</h1>
<p>${escapeHtml(explanation)}</p>
<p><a href="${escapeHtml(adminPagePath)}">Back to the connectors</a>, open the connector and choose
<strong>Authorize</strong> to log in again.</p>
</body>
</html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

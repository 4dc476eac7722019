// The dashboard webview's page: a strict Content-Security-Policy (nothing remote, no inline code; the one script and
// the one style sheet come from the extension's media/ folder, the script only with this page's nonce). No `vscode`
// import, so the unit tests check the policy in Node.
import { randomBytes } from 'node:crypto';

export interface DashboardPageParts {
  /** webview.cspSource: the origin the webview serves the extension's local resources from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  /** A fresh random value per page (see newNonce). */
  nonce: string;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return `default-src 'none'; style-src ${cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
}

const attr = (v: string): string => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page shell; the script draws the cards from the model the extension posts (media/dashboard.js). */
export function dashboardPage(p: DashboardPageParts): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(p.cspSource, p.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(p.styleUri)}" nonce="${attr(p.nonce)}">
<title>AgentSync Dashboard</title>
</head>
<body>
<main id="dashboard" data-agentsync-dashboard aria-label="AgentSync dashboard"><p class="empty">Loading…</p></main>
<script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
</body>
</html>
`;
}

import { CONSOLE_CSS } from './styles.js';

/** The web console's page (served at `/`); its script is ./app/main.tsx, served as /console/app.js. */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>clanstream emulator</title>
<link rel="icon" href="data:,">
<style>${CONSOLE_CSS}</style>
</head>
<body data-status="closed">
<div id="app"></div>
<noscript>The emulator's console needs JavaScript.</noscript>
<script type="module" src="/console/app.js"></script>
</body>
</html>
`;

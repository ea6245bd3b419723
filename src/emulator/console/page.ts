/** The web console's page (served at `/`); its script is ./app.ts, served as /console/app.js. */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>clanstream emulator</title>
<link rel="icon" href="data:,">
<style>
  :root { color-scheme: light dark; font: 14px/1.4 system-ui, sans-serif; }
  body { margin: 0; height: 100vh; display: grid; grid-template-rows: auto 1fr; }
  header { display: flex; gap: .75rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid #8884; }
  header h1 { font-size: 1rem; margin: 0 1rem 0 0; }
  #status { margin-left: auto; opacity: .8; }
  body[data-status="ready"] #status { color: #2a2; opacity: 1; }
  body[data-status="error"] #status { color: #d33; opacity: 1; }
  main { display: grid; grid-template-columns: 14rem 1fr 18rem; min-height: 0; }
  nav, aside { overflow: auto; padding: .5rem; border-right: 1px solid #8884; }
  aside { border-right: 0; border-left: 1px solid #8884; }
  nav h2, aside h2 { font-size: .8rem; text-transform: uppercase; opacity: .7; margin: .75rem 0 .25rem; }
  nav ul, ol { list-style: none; margin: 0; padding: 0; }
  nav button { all: unset; cursor: pointer; display: block; width: 100%; padding: .15rem .4rem; border-radius: .25rem; box-sizing: border-box; }
  nav button[aria-current="true"] { background: #8883; font-weight: 600; }
  section { display: grid; grid-template-rows: auto 1fr auto; min-height: 0; }
  section h2 { margin: 0; padding: .5rem 1rem; font-size: 1rem; border-bottom: 1px solid #8884; }
  #messages { overflow: auto; padding: .5rem 1rem; }
  #messages li, #activity li { margin: .2rem 0; overflow-wrap: anywhere; }
  .who { font-weight: 600; margin-right: .4rem; }
  .where { opacity: .6; margin-right: .4rem; }
  #send { display: flex; gap: .5rem; padding: .5rem 1rem; border-top: 1px solid #8884; }
  #text { flex: 1; padding: .4rem; }
</style>
</head>
<body data-status="closed">
<header>
  <h1>clanstream emulator</h1>
  <form id="login">
    <label>Act as <select id="account" name="account"></select></label>
    <button type="submit">Log in</button>
  </form>
  <span id="status" role="status">choose a user and log in</span>
</header>
<main>
  <nav aria-label="Channels"><div id="channels"></div></nav>
  <section>
    <h2 id="channel-title">No channel</h2>
    <ol id="messages" aria-live="polite"></ol>
    <form id="send">
      <input id="text" name="text" autocomplete="off" placeholder="Type a message as this user" disabled>
      <button type="submit" disabled>Send</button>
    </form>
  </section>
  <aside><h2>Live, every channel</h2><ol id="activity"></ol></aside>
</main>
<script type="module" src="/console/app.js"></script>
</body>
</html>
`;

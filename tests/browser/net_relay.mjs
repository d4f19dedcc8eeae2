/* A local signalling relay for the multiplayer tests and bench: npm
 * bittorrent-tracker's WebSocket tracker, the same protocol as the public
 * WebTorrent trackers Trystero uses by default. Nothing but signalling goes
 * through it; the game's messages travel over WebRTC between the browsers.
 *
 *   node net_relay.mjs MODULES_DIR HOST
 *
 * MODULES_DIR is the node_modules folder bittorrent-tracker was installed
 * into; HOST the address to listen on (port chosen by the system). Prints
 * `listening ws://HOST:PORT` once ready, and stops when stdin closes, so it
 * never outlives the test process that started it.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modules, host = "127.0.0.1"] = process.argv.slice(2);
const url = pathToFileURL(path.join(modules, "bittorrent-tracker", "server.js")).href;
const { default: Server } = await import(url);

const server = new Server({ udp: false, http: true, ws: true, stats: false, interval: 10_000 });
server.on("error", (err) => console.error(`relay error: ${err.message}`));
server.on("warning", () => {});
server.listen(0, host, () => {
  const { port } = server.http.address();
  console.log(`listening ws://${host}:${port}`);
});
process.stdin.resume();
process.stdin.on("end", () => server.close(() => process.exit(0)));

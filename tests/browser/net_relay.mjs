/* A local signalling relay for the multiplayer tests and bench, of either
 * kind the page signals through. Nothing but signalling goes through it;
 * the game's messages travel over WebRTC between the browsers.
 *
 *   node net_relay.mjs KIND MODULES_DIR HOST
 *
 * KIND is `torrent` (npm bittorrent-tracker's WebSocket tracker, the same
 * protocol as the public WebTorrent trackers) or `nostr` (npm
 * @nostr-relay/core behind a `ws` WebSocket server, as public Nostr relays
 * speak it; it keeps no events, since the page signals with ephemeral ones
 * only). MODULES_DIR is the node_modules folder its packages were installed
 * into; HOST the address to listen on (port chosen by the system). Prints
 * `listening ws://HOST:PORT` once ready, and stops when stdin closes, so it
 * never outlives the test process that started it.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

const [kind, modules, host = "127.0.0.1"] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(modules, file)).href);
let close;

if (kind === "torrent") {
  const { default: Server } = await load("bittorrent-tracker/server.js");
  const server = new Server({ udp: false, http: true, ws: true, stats: false, interval: 10_000 });
  server.on("error", (err) => console.error(`relay error: ${err.message}`));
  server.on("warning", () => {});
  server.listen(0, host, () => console.log(`listening ws://${host}:${server.http.address().port}`));
  close = (done) => server.close(done);
} else if (kind === "nostr") {
  const { NostrRelay } = await load("@nostr-relay/core/dist/index.js");
  const { WebSocketServer } = await load("ws/wrapper.mjs");
  const { EventRepository } = await load("@nostr-relay/common/dist/index.js");
  class NothingKept extends EventRepository {
    isSearchSupported() {
      return false;
    }
    upsert() {
      return { isDuplicate: false };
    }
    find() {
      return [];
    }
    async destroy() {}
  }
  const nothingKept = new NothingKept();
  const relay = new NostrRelay(nothingKept, { maxSubscriptionsPerClient: 100 });
  const server = new WebSocketServer({ host, port: 0 });
  server.on("connection", (socket) => {
    relay.handleConnection(socket);
    socket.on("message", async (data) => {
      try {
        await relay.handleMessage(socket, JSON.parse(data.toString()));
      } catch (err) {
        console.error(`relay error: ${err.message}`);
      }
    });
    socket.on("close", () => relay.handleDisconnect(socket));
  });
  server.on("listening", () => console.log(`listening ws://${host}:${server.address().port}`));
  close = (done) => {
    for (const socket of server.clients) socket.terminate();
    server.close(done);
  };
} else {
  console.error(`unknown relay kind ${kind}: torrent or nostr`);
  process.exit(2);
}
process.stdin.resume();
process.stdin.on("end", () => close(() => process.exit(0)));

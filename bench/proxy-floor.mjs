// The floor the shadow is measured against (bench/shadow.bench.ts): the least a Node HTTP proxy
// does, each request streamed to the upstream on a pooled connection and its answer streamed
// back, nothing read, judged or counted. Prints its URL, as ctxconform shadow does.
import { Agent, createServer, request } from 'node:http';

const upstream = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const server = createServer((req, res) => {
  const up = request({ agent, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  up.on('error', () => res.destroy());
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => console.log(`floor listening on http://127.0.0.1:${server.address().port} ->`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

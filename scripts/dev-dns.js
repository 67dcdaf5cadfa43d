// A DNS server on the loopback for trying verified domains locally (README, "Verified domains"):
//   node scripts/dev-dns.js [--port 5353] NAME=VALUE ...
// answers TXT queries for each NAME with its VALUE (a NAME given twice has two records), and
// nothing else. Start the service with DNS_RESOLVER_SERVERS=127.0.0.1:<port>. dns2 is a devDependency.
// Its one line, `DNS on 127.0.0.1:<port>: NAME, ...`, comes once it listens (a second or two after
// its start): README's block waits for that line before it verifies.
const { Packet, UDPServer } = require('dns2');

const args = process.argv.slice(2);
let port = 5353;
const records = new Map();
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--port') port = Number(args[++i]);
  else {
    const at = args[i].indexOf('=');
    if (at < 1) {
      console.error(`Expected NAME=VALUE, got "${args[i]}"`);
      process.exit(1);
    }
    const name = args[i].slice(0, at).toLowerCase();
    records.set(name, [...(records.get(name) ?? []), args[i].slice(at + 1)]);
  }
}

const server = new UDPServer((request, send) => {
  const response = Packet.createResponseFromRequest(request);
  const [question] = request.questions;
  if (question && question.type === Packet.TYPE.TXT) {
    for (const data of records.get(question.name.toLowerCase()) ?? []) {
      response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data });
    }
  }
  send(response);
});
server
  .listen(port, '127.0.0.1')
  .then(() => console.log(`DNS on 127.0.0.1:${port}: ${[...records.keys()].join(', ') || 'no records'}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));

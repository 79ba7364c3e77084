// server.mjs -- the real build/puzzled on a free loopback port for the
// contract tests.  PUZZLED_BIN names the binary (default build/puzzled),
// PUZZLED_TEST_LOGS where its log goes (default build/test-logs).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const BIN = path.resolve(ROOT, process.env.PUZZLED_BIN || 'build/puzzled');
const LOGS = path.resolve(ROOT, process.env.PUZZLED_TEST_LOGS || 'build/test-logs');

// Resolves to {base, port, stop()} once the server logged "listening".
export async function startServer(args = [], name = 'contract') {
  fs.mkdirSync(LOGS, { recursive: true });
  const log = fs.createWriteStream(path.join(LOGS, `${name}.log`));
  const proc = spawn(BIN, ['--bind', '127.0.0.1', '--port', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines = readline.createInterface({ input: proc.stderr });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('puzzled did not start in 10 s')), 10_000);
    proc.once('exit', (code) => reject(new Error(`puzzled exited with ${code}`)));
    lines.on('line', (line) => {
      if (!log.writableEnded) log.write(`${line}\n`);
      try {
        const j = JSON.parse(line);
        if (j.msg === 'listening') {
          clearTimeout(timer);
          resolve(j.port);
        }
      } catch {
        /* not a log line */
      }
    });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    proc,
    // SIGTERM, and the exit status (the server exits 0 after draining).
    // 'close', not 'exit': the server's last log lines may still be in its
    // stderr pipe when it exits (on a loaded machine they were, and the
    // write after log.end() failed the suite), and 'close' comes after them.
    async stop() {
      if (proc.exitCode !== null) return proc.exitCode;
      const done = new Promise((r) => proc.once('close', (code) => r(code)));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      const code = await done;
      clearTimeout(t);
      log.end();
      return code;
    },
  };
}

import { runCli } from './cli';
import { CliInputError } from './local-users.service';

runCli(process.argv.slice(2)).then(
  (output) => {
    if (output) process.stdout.write(`${output}\n`);
  },
  (error: Error) => {
    const message = error instanceof CliInputError ? error.message : `error: ${error.message}`;
    process.stderr.write(`${message.replace(/\s*\n\s*/g, ' ')}\n`);
    process.exitCode = 1;
  },
);

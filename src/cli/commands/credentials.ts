// `tti-run credentials`: issue, revoke and list the CURVE credentials of workers that join a run
// from other machines (src/run/credentials.ts). Issue writes the worker's file (0600) and adds its
// public key to the run's allow-list; revoke marks it, and a running supervisor drops that worker.
import {
  allowListFile,
  issueCredential,
  keyPrefix,
  REMOTE_ROLES,
  readAllowList,
  revokeCredential,
  writeCredential,
} from '../../run/index.js';
import { defineCommand, exitWith } from '../command.js';

export const credentialsCommand = defineCommand({
  command: 'credentials <action>',
  describe: 'issue, revoke or list the credentials of remote workers (one CURVE key pair each)',
  builder: (y) =>
    y
      .positional('action', { choices: ['issue', 'revoke', 'list'] as const, demandOption: true })
      .option('run-dir', { type: 'string', demandOption: true })
      .option('role', { choices: REMOTE_ROLES, describe: 'issue: the worker role the key is for' })
      .option('out', {
        type: 'string',
        describe: "issue: where to write the worker's credential file (0600)",
      })
      .option('id', { type: 'string', describe: 'revoke: the key id (see list)' })
      .example('$0 credentials issue --run-dir runs/big --role env --out env-r0.json', 'one env worker')
      .example('$0 credentials revoke --run-dir runs/big --id env-r0', 'that worker is dropped')
      .example('$0 credentials list --run-dir runs/big', 'ids, roles, issued, revoked'),
  handler: (argv) =>
    exitWith(() => {
      const runDir = argv['run-dir'];
      switch (argv.action) {
        case 'issue': {
          if (argv.role === undefined || argv.out === undefined) {
            process.stderr.write('tti-run credentials issue: needs --role and --out\n');
            return 2;
          }
          const credential = issueCredential(runDir, argv.role);
          writeCredential(argv.out, credential);
          process.stdout.write(
            `issued ${credential.id} (${credential.role}, public key ${keyPrefix(credential.publicKey)}) → ${argv.out}; allow-list ${allowListFile(runDir)}\n`,
          );
          return 0;
        }
        case 'revoke': {
          if (argv.id === undefined) {
            process.stderr.write('tti-run credentials revoke: needs --id\n');
            return 2;
          }
          const entry = revokeCredential(runDir, argv.id);
          process.stdout.write(`revoked ${entry.id} at ${entry.revokedAt}\n`);
          return 0;
        }
        case 'list': {
          for (const k of readAllowList(runDir).keys)
            process.stdout.write(
              `${k.id}\t${k.role}\t${keyPrefix(k.publicKey)}\tissued ${k.issuedAt}\t${k.revokedAt ? `revoked ${k.revokedAt}` : 'valid'}\n`,
            );
          return 0;
        }
      }
    }),
});

import { readFileSync, writeFileSync } from 'node:fs';
import { renderEnvExample, withConfigTable } from './config-docs.js';

// `npm run config:docs`: regenerates .env.example and the README's configuration table.
writeFileSync('.env.example', renderEnvExample());
writeFileSync('README.md', withConfigTable(readFileSync('README.md', 'utf8')));
process.stdout.write('wrote .env.example and the README configuration table\n');

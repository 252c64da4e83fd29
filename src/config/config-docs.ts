import { VARIABLES, type VariableGroup } from './variables.js';

const GROUP_ORDER: VariableGroup[] = [
  'Server',
  'Store',
  'Directory',
  'Feeds',
  'Slack',
  'Discord',
  'Webhooks',
  'Panel',
  'Sandbox',
];

/** `.env.example`, generated from the variable table so it can never miss a variable. */
export function renderEnvExample(): string {
  const lines = [
    '# Directory Bot configuration. Every variable is optional: with none set, `npm start`',
    '# runs the sandbox (embedded emulator, console output, its own store ./data/sandbox.sqlite).',
    '# Generated from src/config/variables.ts by `npm run config:docs`; a test keeps it in sync.',
    '',
  ];
  for (const group of GROUP_ORDER) {
    lines.push(`# ---- ${group} ----`);
    for (const variable of VARIABLES.filter((v) => v.group === group)) {
      lines.push(`# ${variable.description}${variable.secret ? ' (secret)' : ''}`);
      const value = variable.defaultText ?? variable.example ?? '';
      lines.push(`# ${variable.name}=${value}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** The README's configuration table, generated from the same list. */
export function renderConfigTable(): string {
  const rows = ['| Variable | Group | Default | What it does |', '| --- | --- | --- | --- |'];
  for (const group of GROUP_ORDER) {
    for (const variable of VARIABLES.filter((v) => v.group === group)) {
      const fallback = variable.defaultText === undefined ? '—' : `\`${variable.defaultText}\``;
      rows.push(
        `| \`${variable.name}\` | ${group} | ${fallback} | ${variable.description.replaceAll('|', '\\|')}${variable.secret ? ' Secret.' : ''} |`,
      );
    }
  }
  return rows.join('\n');
}

export const CONFIG_TABLE_START = '<!-- config-table:start -->';
export const CONFIG_TABLE_END = '<!-- config-table:end -->';

/** Replaces the table between the README's markers. */
export function withConfigTable(readme: string): string {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  if (start < 0 || end < start) throw new Error('README.md lacks the config-table markers');
  return `${readme.slice(0, start + CONFIG_TABLE_START.length)}\n${renderConfigTable()}\n${readme.slice(end)}`;
}

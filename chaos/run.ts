import { PROFILES, type Profile } from './profiles';
import { isClean, type ScenarioResult } from './report/scenario-result';
import { formatTable } from './report/table';
import { SCENARIOS } from './scenarios';

// `npm run test:chaos [-- --profile ci|full] [-- --only a,b]`: runs the scenarios one after the
// other (so their figures do not disturb each other), prints the table, exits 1 unless all are clean.

function parseArgs(argv: string[]): { profile: Profile; only?: string[] } {
  let profile = PROFILES.ci;
  let only: string[] | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--full') profile = PROFILES.full;
    else if (arg === '--profile') profile = PROFILES[argv[++index] as Profile['name']] ?? usage(`unknown profile ${argv[index]}`);
    else if (arg === '--only') only = argv[++index]?.split(',');
    else usage(`unknown argument ${arg}`);
  }
  for (const name of only ?? []) if (!SCENARIOS[name]) usage(`unknown scenario ${name}`);
  return { profile, only };
}

function usage(problem: string): never {
  process.stderr.write(`${problem}\nusage: npm run test:chaos -- [--profile ci|full] [--full] [--only ${Object.keys(SCENARIOS).join(',')}]\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { profile, only } = parseArgs(process.argv.slice(2));
  const log = (message: string) => process.stderr.write(`[chaos] ${message}\n`);
  const results: ScenarioResult[] = [];
  for (const [name, runner] of Object.entries(SCENARIOS)) {
    if (only && !only.includes(name)) continue;
    log(`${name} (${profile.name} profile)…`);
    const started = Date.now();
    const result = await runner({ profile, log });
    log(`${name}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    result.problems.forEach((problem) => log(`  ${problem}`));
    results.push(result);
  }
  process.stdout.write(`\n${formatTable(results)}\n`);
  if (!results.every(isClean)) {
    log('FAILED: some work was lost, duplicated or failed, or the API answered 5xx (details above)');
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[chaos] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

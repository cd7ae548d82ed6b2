import { PROFILES, type Profile } from './profiles';
import { isClean, type ScenarioResult } from './report/scenario-result';
import { formatTable } from './report/table';
import { SCENARIOS } from './scenarios';
import { runSoak, type SoakPlan } from './scenarios/soak';

// `npm run test:chaos [-- --profile ci|full] [-- --only a,b]`: runs the scenarios one after the
// other (so their figures do not disturb each other), prints the table, exits 1 unless all are clean.
// `npm run test:chaos -- --soak [--minutes N]` runs the soak alone instead (60 minutes by default).

const SOAK_MINUTES = 60;

interface Args {
  profile: Profile;
  only?: string[];
  soak?: SoakPlan;
}

function parseArgs(argv: string[]): Args {
  let profile = PROFILES.ci;
  let only: string[] | undefined;
  let soak: SoakPlan | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--full') profile = PROFILES.full;
    else if (arg === '--profile') profile = PROFILES[argv[++index] as Profile['name']] ?? usage(`unknown profile ${argv[index]}`);
    else if (arg === '--only') only = argv[++index]?.split(',');
    else if (arg === '--soak') soak = { minutes: soak?.minutes ?? SOAK_MINUTES };
    else if (arg === '--minutes') soak = { minutes: minutesFrom(argv[++index]) };
    else usage(`unknown argument ${arg}`);
  }
  for (const name of only ?? []) if (!SCENARIOS[name]) usage(`unknown scenario ${name}`);
  return { profile, only, soak };
}

function minutesFrom(value: string | undefined): number {
  const minutes = Number(value);
  // Four minutes at least: growth is judged between the run's second and last quarters.
  if (!Number.isInteger(minutes) || minutes < 4) usage(`--minutes takes a whole number of at least 4, not ${value}`);
  return minutes;
}

function usage(problem: string): never {
  process.stderr.write(`${problem}\nusage: npm run test:chaos -- [--profile ci|full] [--full] [--only ${Object.keys(SCENARIOS).join(',')}]\n       npm run test:chaos -- --soak [--minutes N]\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const { profile, only, soak } = parseArgs(process.argv.slice(2));
  const log = (message: string) => process.stderr.write(`[chaos] ${message}\n`);
  if (soak) return runSoakAlone(soak, log);
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

async function runSoakAlone(plan: SoakPlan, log: (message: string) => void): Promise<void> {
  const { result, table } = await runSoak(plan, log);
  result.problems.forEach((problem) => log(`  ${problem}`));
  process.stdout.write(`\n${formatTable([result])}\n\n${table}\n`);
  if (!isClean(result)) {
    log('FAILED: a figure grew, work was lost, duplicated or failed, a webhook is missing, or the API answered 5xx (details above)');
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[chaos] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

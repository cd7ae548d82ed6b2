import { createAssessmentCheckActivities } from '../../activities/assessment-checks/assessment-checks.activity';
import { orderAndCapFindings } from '../../workflows/finding-order';
import { FINDINGS_TRUNCATED_CHECK, runAssessmentChecks } from '../../activities/assessment-checks';
import { ASSESSMENT_CHECK_ACTIVITIES, type Finding, type NetworkGraph } from '../../src/contract';

const activities = createAssessmentCheckActivities();

/** What the workflow does with the check activities' results. */
async function mergedActivityFindings(graph: NetworkGraph): Promise<Finding[]> {
  const results = await Promise.all(ASSESSMENT_CHECK_ACTIVITIES.map(({ activity }) => activities[activity](graph)));
  return orderAndCapFindings(results.flat());
}

function chain(length: number): NetworkGraph {
  const ids = Array.from({ length }, (_, index) => `c${String(index).padStart(4, '0')}`);
  return {
    components: ids.map((id, index) => ({ id, kind: index % 5 === 0 ? 'database' : 'server', zone: `z${index % 2}` })),
    links: ids.slice(1).map((id, index) => ({ from: ids[index], to: id })),
  };
}

const GRAPHS: Array<[string, NetworkGraph]> = [
  [
    'a small shop with every kind of finding',
    {
      components: [
        { id: 'net', kind: 'internet', zone: 'outside' },
        { id: 'lb', kind: 'load_balancer', zone: 'eu-1a' },
        { id: 'app-1', kind: 'app', zone: 'eu-1a' },
        { id: 'app-2', kind: 'app', zone: 'eu-1a' },
        { id: 'db', kind: 'database', zone: 'eu-1a' },
        { id: 'batch', kind: 'worker', zone: 'eu-1b' },
        { id: 'db', kind: 'cache', zone: 'eu-1b' },
      ],
      links: [
        { from: 'net', to: 'lb' },
        { from: 'lb', to: 'app-1' },
        { from: 'lb', to: 'app-2' },
        { from: 'app-1', to: 'db' },
        { from: 'app-2', to: 'ghost' },
        { from: 'db', to: 'db' },
      ],
    },
  ],
  ['a 300-component chain whose findings are capped', chain(300)],
];

describe('the check activities, merged as the workflow merges them', () => {
  it.each(GRAPHS)('find exactly what runAssessmentChecks finds, in the same order, for %s', async (_name, graph) => {
    expect(await mergedActivityFindings(graph)).toEqual(runAssessmentChecks(graph));
  });

  it('keep the cap per check when a check is over it', async () => {
    const findings = await mergedActivityFindings(chain(300));
    expect(findings.filter((finding) => finding.check === FINDINGS_TRUNCATED_CHECK)).toHaveLength(2);
  });
});

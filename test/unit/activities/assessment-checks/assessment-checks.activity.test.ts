import { createAssessmentCheckActivities } from '../../../../activities/assessment-checks/assessment-checks.activity';
import { orderAndCapFindings } from '../../../../src/findings/finding-order';
import { FINDINGS_TRUNCATED_CHECK, runAssessmentChecks } from '../../../../activities/assessment-checks';
import { ASSESSMENT_CHECK_ACTIVITIES, type Finding, type NetworkGraph } from '../../../../src/contract';
import { SINGLE_ZONE_GRAPH } from '../../../support/graphs';

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
    // The single-zone shop with an isolated worker, a duplicate id, a dangling link and a self-loop added.
    {
      components: [...SINGLE_ZONE_GRAPH.components, { id: 'batch', kind: 'worker', zone: 'eu-1b' }, { id: 'db', kind: 'cache', zone: 'eu-1b' }],
      links: [...SINGLE_ZONE_GRAPH.links.filter((link) => link.from !== 'app-2'), { from: 'app-2', to: 'ghost' }, { from: 'db', to: 'db' }],
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

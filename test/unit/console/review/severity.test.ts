import { componentMarks } from '../../../../console/review/severity';

describe('the drawing marks components by their findings', () => {
  it('marks each component with the worst severity naming it and whether it is a single point of failure', () => {
    const marks = componentMarks([
      { check: 'zone_redundancy', severity: 'medium', message: '', component_ids: ['db', 'app'] },
      { check: 'single_point_of_failure', severity: 'high', message: '', component_ids: ['db'] },
      { check: 'reachability', severity: 'low', message: '', component_ids: ['app'] },
    ]);
    expect(marks.get('db')).toEqual({ severity: 'high', singlePointOfFailure: true });
    expect(marks.get('app')).toEqual({ severity: 'medium', singlePointOfFailure: false });
    expect(marks.has('lb')).toBe(false);
  });
});

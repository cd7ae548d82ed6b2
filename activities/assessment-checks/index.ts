export { runAssessmentChecks } from './check-registry';
export { MAX_FINDINGS_PER_CHECK, FINDINGS_TRUNCATED_CHECK } from '../../src/findings/finding-order';
export { ARTICULATION_POINT_CHECK, BRIDGE_LINK_CHECK } from './single-points-of-failure';
export { SINGLE_ZONE_CHECK, MISSING_REDUNDANCY_CHECK } from './zone-redundancy';
export { ISOLATED_COMPONENT_CHECK, UNREACHABLE_COMPONENTS_CHECK } from './reachability';
export { DANGLING_LINK_CHECK, SELF_LOOP_CHECK } from './dangling-links';
export { DUPLICATE_COMPONENT_CHECK } from './duplicate-components';
export { KINDS_REQUIRING_REDUNDANCY, ENTRY_KINDS, EXTERNAL_KINDS } from './component-kinds';

import { z } from 'zod';
import { ORGANIZATION_ID_SHAPE } from '../keys/key-service';

// Temporal clamps weights to this range; a value outside it would silently mean something else.
const MIN_WEIGHT = 0.001;
const MAX_WEIGHT = 1000;

/**
 * FAIRNESS_WEIGHTS, "org-a=2,org-b=0.5", as a map from organisation to its fairness weight. While
 * organisations have tasks waiting, each is dispatched in proportion to its weight; every one not
 * listed weighs 1.
 */
export const fairnessWeights = z.string().transform((value, context) => {
  const weights = new Map<string, number>();
  for (const entry of value.split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    const parts = entry.split('=').map((part) => part.trim());
    const [organizationId = '', weightText = ''] = parts;
    const weight = Number(weightText);
    if (parts.length !== 2 || !ORGANIZATION_ID_SHAPE.test(organizationId)) {
      context.addIssue({ code: 'custom', message: `"${entry}" must be an organisation id, "=", and a weight` });
    } else if (weightText === '' || !Number.isFinite(weight) || weight < MIN_WEIGHT || weight > MAX_WEIGHT) {
      context.addIssue({ code: 'custom', message: `the weight of ${organizationId} must be a number from ${MIN_WEIGHT} to ${MAX_WEIGHT}` });
    } else if (weights.has(organizationId)) {
      context.addIssue({ code: 'custom', message: `${organizationId} is listed twice` });
    } else {
      weights.set(organizationId, weight);
    }
  }
  return weights as ReadonlyMap<string, number>;
});

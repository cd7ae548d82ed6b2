import { AssessmentsController } from '../../src/api/assessments/assessments.controller';
import { BatchesController } from '../../src/api/batches/batches.controller';
import { HealthController } from '../../src/api/platform/health/health.controller';
import { operationsOf } from '../../src/api/platform/http/api-route';
import { MetricsController } from '../../src/api/platform/metrics/metrics.controller';
import { ModelsController } from '../../src/api/models/models.controller';
import { UsageController } from '../../src/api/usage/usage.controller';
import { OpenApiController } from '../../src/api/platform/openapi/openapi.controller';
import { ReviewController } from '../../src/api/review/review.controller';
import { ConsoleController } from '../../src/api/console/console.controller';
import { TasksController } from '../../src/api/tasks/tasks.controller';
import { WebhooksController } from '../../src/api/webhooks/webhooks.controller';

/**
 * The operations of the app's controllers, for unit tests that build the document without
 * starting Nest; test/unit/openapi-routes.test.ts holds this list equal to what the app serves.
 */
export const API_OPERATIONS = [TasksController, BatchesController, ModelsController, UsageController, AssessmentsController, WebhooksController, ReviewController, ConsoleController, HealthController, MetricsController, OpenApiController].flatMap((controller) =>
  operationsOf(controller),
);

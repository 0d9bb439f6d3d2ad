export { harnessFailure, runScenario, type RunOptions, type ScenarioResult } from './lib/scenario-runner';
export { SCENARIOS, scenarioNamed, type Scenario } from './lib/scenarios';
export { WORKERS, type WorkerName } from './lib/chaos-stack';
export { formatTable, writeDocs } from './lib/report';

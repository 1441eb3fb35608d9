import { describe, expect, it } from 'vitest';
import { execute, getIntrospectionQuery, parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { getSchema } from '../../src/graphql/schema.js';
import { useIntrospectionAnswer } from '../../src/graphql/introspection-answer.js';

type OnExecute = (payload: {
  args: ExecutionArgs;
  executeFn: (args: ExecutionArgs) => Promise<ExecutionResult>;
  setExecuteFn: (fn: (args: ExecutionArgs) => Promise<ExecutionResult>) => void;
}) => void;

/** Runs `args` through the plugin's onExecute as Yoga would, counting the executions that reach graphql-js. */
function harness() {
  const onExecute = useIntrospectionAnswer().onExecute as unknown as OnExecute;
  let executions = 0;
  const run = async (args: ExecutionArgs) => {
    let executeFn = async (a: ExecutionArgs) => {
      executions++;
      return execute(a) as ExecutionResult;
    };
    onExecute({ args, executeFn, setExecuteFn: (fn) => (executeFn = fn) });
    return executeFn(args);
  };
  return { run, executions: () => executions };
}

const schema = getSchema();

describe('useIntrospectionAnswer: introspection answered once per document, operation and variables', () => {
  it("GraphiQL's query runs once; the same answer is given after", async () => {
    const { run, executions } = harness();
    const document = parse(getIntrospectionQuery({ descriptions: true }));
    const first = await run({ schema, document, operationName: 'IntrospectionQuery' });
    const second = await run({ schema, document, operationName: 'IntrospectionQuery' });
    expect(executions()).toBe(1);
    expect(second).toBe(first);
    expect((first.data as { __schema: { queryType: { name: string } } }).__schema.queryType.name).toBe('Query');
  });

  it('other variables are another answer; an answer with errors is not kept; other operations are left alone', async () => {
    const { run, executions } = harness();
    const type = parse('query T($name: String!) { __type(name: $name) { name } }');
    await run({ schema, document: type, variableValues: { name: 'Venue' } });
    await run({ schema, document: type, variableValues: { name: 'Vendor' } });
    await run({ schema, document: type, variableValues: { name: 'Venue' } });
    expect(executions()).toBe(2);
    const missing = parse('query M($name: String!) { __type(name: $name) { name } }');
    await run({ schema, document: missing, variableValues: {} });
    await run({ schema, document: missing, variableValues: {} });
    expect(executions()).toBe(4);
    const mixed = parse('{ __typename venues(first: 1) { totalCount } }');
    const onExecute = useIntrospectionAnswer().onExecute as unknown as OnExecute;
    let replaced = false;
    onExecute({ args: { schema, document: mixed }, executeFn: async () => ({}), setExecuteFn: () => (replaced = true) });
    expect(replaced).toBe(false);
  });
});

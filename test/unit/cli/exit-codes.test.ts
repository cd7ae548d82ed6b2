import { ExitCode, exitCodeHelp } from '../../../src/cli/exit-codes';

describe('the exit-code table', () => {
  test('gives every outcome its own number', () => {
    const codes = Object.values(ExitCode);
    expect(new Set(codes).size).toBe(codes.length);
  });

  test('the whole table is one line per code, each with a meaning of its own', () => {
    const lines = exitCodeHelp().split('\n').slice(2);
    expect(lines.map((line) => Number(line.trim().split(' ')[0]))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 70]);
    const meanings = lines.map((line) => line.replace(/^ +\d+ +/, ''));
    expect(new Set(meanings).size).toBe(meanings.length);
  });

  test("one command's list always includes success, usage and internal, in order", () => {
    expect(exitCodeHelp([ExitCode.OutcomeUnknown, ExitCode.NotFound])).toMatch(/^\nExit codes:\n {2}0 .*\n {2}2 .*\n {2}3 .*\n {2}7 .*\n {2}70 .*$/);
  });
});

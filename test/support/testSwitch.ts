/** A test run's switch such as TEST_DATABASE: one of `allowed`, the first when it is unset; any other value stops the run. */
export function testSwitch<T extends string>(name: string, allowed: readonly [T, ...T[]]): T {
  const value = process.env[name] ?? allowed[0];
  if (!(allowed as readonly string[]).includes(value))
    throw new Error(`${name} must be ${allowed.join(' or ')}, not ${JSON.stringify(value)}`);
  return value as T;
}

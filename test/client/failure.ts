/** The error a request ends with; a request that succeeds fails the test. */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the request to fail');
}

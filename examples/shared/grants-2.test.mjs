// Shares the run's sandbox (./global-setup.mjs) through a worker's own game: ./grant-tests.mjs.
import { grantTests } from './grant-tests.mjs';

grantTests('file-2');

import { launchFirefox } from './support/firefox';
import { engineSuite } from './support/suite';

engineSuite(launchFirefox);

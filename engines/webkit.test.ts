import { launchWebKit } from './support/webkit';
import { engineSuite } from './support/suite';

engineSuite(launchWebKit);

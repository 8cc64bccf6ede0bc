import { exitOnStartupError, launchService } from './launch';
import { processLogger } from './log';
import { stopOnSignals } from './shutdown';

const log = processLogger();

try {
  const service = await launchService(process.env, log);
  stopOnSignals(() => service.close(), log);
} catch (error) {
  exitOnStartupError(error, log);
}

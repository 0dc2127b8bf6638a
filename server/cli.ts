// The CLI's entry point (npm run cli). The resolution shortcuts come first: they apply to the modules imported after them.
import { registerResolutionShortcuts } from './module-resolution';

registerResolutionShortcuts();
await import('./cli/main');

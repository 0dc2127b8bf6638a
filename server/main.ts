// The server's entry point (npm start). The resolution shortcuts come first: they apply to the modules imported after them.
import { registerResolutionShortcuts } from './module-resolution';

registerResolutionShortcuts();
await import('./serve');

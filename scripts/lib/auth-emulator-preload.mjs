/**
 * Loaded into the Firebase Auth emulator's process (`node --import`, scripts/lib/auth-emulator.ts) before
 * firebase-tools: its OpenAPI request router (exegesis) compiles a JSON-schema validator, with a fresh Ajv each, for
 * every parameter of the whole Identity Toolkit API at start-up, 12–15 s of CPU; exegesis's own
 * `lazyCompileValidationSchemas` option compiles each one when its operation is first called instead (tens of
 * milliseconds). Requests are validated exactly as before.
 */
import { createRequire } from 'node:module';

const fromFirebaseTools = createRequire(createRequire(import.meta.url).resolve('firebase-tools/package.json'));
const fromExegesisExpress = createRequire(fromFirebaseTools.resolve('exegesis-express'));
/** @type {{ compileOptions: (options?: Record<string, unknown>) => unknown }} */
const exegesisOptions = fromExegesisExpress('exegesis/lib/options');
const compileOptions = exegesisOptions.compileOptions;
exegesisOptions.compileOptions = (options = {}) => compileOptions({ lazyCompileValidationSchemas: true, ...options });

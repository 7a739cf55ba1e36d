/**
 * Engine worker entry for onnxruntime sessions (started by ort-engine.ts, one per session). onnxruntime-node's
 * `run` is synchronous native code; here it blocks this worker's thread instead of the server's event loop.
 */
import { serveSession } from '../worker/serve.ts';
import { loadOrtModel } from './ort-backend.ts';

serveSession(loadOrtModel);

export { startBrowserHost, RendererNotBuiltError, CLOSE_UNAUTHORIZED, CLOSE_BAD_FRAME, CALLS_IN_FLIGHT_PER_CONNECTION, type BrowserHost, type BrowserHostOptions, type HostLog } from './server';

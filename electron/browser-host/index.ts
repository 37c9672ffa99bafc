export { startBrowserHost, RendererNotBuiltError, CLOSE_UNAUTHORIZED, CLOSE_BAD_FRAME, type BrowserHost, type BrowserHostOptions, type HostLog } from './server';

// Boots the nurse's screens: connect to the station (preload or loopback), start i18n in English,
// draw, then load the station's state; the language follows the station's settings once known.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { connectToStation } from './bridge';
import { startI18n } from './i18n';
import { setTransport } from './state/bridge';
import { startStation } from './state/station-store';
import { checkFieldsInScreenLanguage } from './ui/field-checks';
import './ui/styles.css';
import './feature-styles';

const transport = connectToStation();
if (transport !== null) setTransport(transport);

await startI18n('en');
checkFieldsInScreenLanguage();
const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App connected={transport !== null} />
  </StrictMode>,
);
if (transport !== null) void startStation();

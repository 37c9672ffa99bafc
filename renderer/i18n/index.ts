// i18next with the English words of the first screen in the first bundle (each other feature's
// come with its screen: english.ts) and the Swahili ones loaded on first use, all at once.
// Every string the nurse reads lives in an en.json and a sw.json: the shared words here, each
// feature's in its folder (catalogue.ts; test/unit/renderer/i18n.test.ts keeps them in step).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { englishSoFar } from './english';

export type Language = 'en' | 'sw';

export async function startI18n(language: Language): Promise<void> {
  await i18next.use(initReactI18next).init({
    resources: { en: { translation: englishSoFar() } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false, // the English strings are bundled: no reason to wait a turn before the first screen
    returnNull: false,
  });
  await switchLanguage(language);
}

export async function switchLanguage(language: Language): Promise<void> {
  // Changing to the language already shown would redraw every screen for nothing.
  if (i18next.language === language && document.documentElement.lang === language) return;
  if (language === 'sw' && !i18next.hasResourceBundle('sw', 'translation')) {
    const { swahili } = await import('./swahili');
    i18next.addResourceBundle('sw', 'translation', swahili);
  }
  await i18next.changeLanguage(language);
  document.documentElement.lang = language;
}

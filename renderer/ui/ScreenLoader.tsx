// Around every screen loaded on first use (React.lazy): while its code comes from the station's own
// server, what is happening and no blank page; if it cannot come (the station's screens were
// updated underneath this window, or its server restarted elsewhere), that, and the way out —
// reload the screens, which asks for the current ones. Chromium keeps a failed module import
// failed for the page's life, so trying the same import again would fail again.
import { Component, Suspense } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { Notice } from './Notice';

function Opening() {
  const { t } = useTranslation();
  return (
    <p className="loading progress" role="status">
      {t('app.screen.opening')}
    </p>
  );
}

function CouldNotOpen() {
  const { t } = useTranslation();
  return (
    <div className="screen">
      <Notice tone="bad" title={t('app.screen.failed.title')}>
        <p>{t('app.screen.failed.body')}</p>
        <Button tone="primary" onClick={() => location.reload()}>
          {t('app.screen.failed.reload')}
        </Button>
      </Notice>
    </div>
  );
}

class LoadFailure extends Component<{ readonly children: ReactNode }, { readonly failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('a screen could not be loaded', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <CouldNotOpen /> : this.props.children;
  }
}

/** `screen` is the screen for the current route; a new route (`route`) starts afresh. */
export function ScreenLoader({ route, children }: { readonly route: string; readonly children: ReactNode }) {
  return (
    <LoadFailure key={route}>
      <Suspense fallback={<Opening />}>{children}</Suspense>
    </LoadFailure>
  );
}

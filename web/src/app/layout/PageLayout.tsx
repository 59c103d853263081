import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { useNavigation } from 'react-router';
import { Logo } from './Logo';
import { SkipLink } from './SkipLink';

/** SPEC §2.19: the /dlink page layout, without the main navigation. */
export function PageLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <div className="page-layout">
      <SkipLink />
      <header className="page-layout__brand">
        <Logo size={40} />
        <span className="brand__name">{t('App_Name')}</span>
      </header>
      <main
        id="main"
        className="page-layout__main"
        tabIndex={-1}
        aria-busy={navigation.state === 'loading'}
      >
        {children}
      </main>
    </div>
  );
}

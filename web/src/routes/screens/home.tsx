import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useUser } from '../../app/context';
import { EmptyState, Screen, Section } from '../../components/Screen';
import { SignInDialog } from '../../features/user';

/** SPEC §2.1 home: top, local and latest stories; `?login=1` opens sign-in (D8). */
export default function Home() {
  const { t } = useTranslation();
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const closeLogin = useCallback(() => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('login');
        next.delete('redirect');
        return next;
      },
      { replace: true },
    );
  }, [setParams]);
  const hint = t('Empty_StoriesHint');
  return (
    <Screen>
      <Section title={t('Section_TopStories')}>
        <EmptyState title={t('Empty_Stories')} hint={hint} />
      </Section>
      <Section
        title={user?.city ? t('Section_Local', { city: user.city }) : t('Section_LocalNoCity')}
      >
        <EmptyState title={t('Empty_Stories')} hint={hint} />
      </Section>
      <Section title={t('Section_Latest')}>
        <EmptyState title={t('Empty_Stories')} hint={hint} />
      </Section>
      {params.get('login') === '1' && (
        <SignInDialog redirect={params.get('redirect')} onClose={closeLogin} />
      )}
    </Screen>
  );
}

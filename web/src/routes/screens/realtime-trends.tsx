import { useTranslation } from '../../i18n';
import { useSearchParams } from 'react-router';
import { Screen, Section } from '../../components/Screen';
import { TrendList, TrendStories } from '../../features/trends';

/** SPEC §2.8 realtime trends: the list, or one trend's stories (`?trend=key`). */
export default function RealtimeTrends() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const trendKey = params.get('trend');
  return (
    <Screen>
      {trendKey ? (
        <TrendStories trendKey={trendKey} />
      ) : (
        <Section title={t('Trends_Now')}>
          <TrendList />
        </Section>
      )}
    </Screen>
  );
}

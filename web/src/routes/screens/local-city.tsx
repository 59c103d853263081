import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { StoryListScreen } from '../../components/Screen';

/** `/local/washington-dc` → "washington dc" until the gazetteer names the city. */
function placeFromSlug(slug: string): string {
  return slug.replace(/[-_]+/g, ' ').trim();
}

/** SPEC §2.3 local news of a named city. */
export default function LocalCity() {
  const { t } = useTranslation();
  const { local = '' } = useParams();
  const place = placeFromSlug(local);
  return (
    <StoryListScreen
      sectionTitle={place ? t('Section_Local', { city: place }) : t('Section_LocalNoCity')}
    />
  );
}

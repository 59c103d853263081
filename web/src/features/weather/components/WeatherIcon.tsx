import { useTranslation } from '../../../i18n';
import { codeIcon, codeKey } from '../codes';

/** The conditions' words, with their icon beside them (the icon itself is decoration). */
export function useConditionWords() {
  const { t } = useTranslation();
  return (code: number, isDay = true) => {
    const words = t(codeKey(code));
    return isDay ? words : t('Weather_Night', { words });
  };
}

export function WeatherIcon({
  code,
  isDay,
  label,
}: {
  code: number;
  isDay: boolean;
  label: string;
}) {
  return (
    <span className="weather-icon" role="img" aria-label={label}>
      {codeIcon(code, isDay)}
    </span>
  );
}

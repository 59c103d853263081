import type { ReactNode } from 'react';
import { useTranslation } from '../../../i18n';
import { emitPopup } from '../../../components/popup';
import { watchMailClient } from '../../../lib/mailClient';
import { hostOf } from '../../../lib/news';
import type { MediaSource } from '../../../lib/news';

/** The publisher (§3 media source): icon, name, about, area, contact and home link. */
export function MediaHeader({ media, actions }: { media: MediaSource; actions?: ReactNode }) {
  const { t } = useTranslation();
  const area = [media.area3, media.area2, media.area1 ? t(`Country_${media.area1}`) : '']
    .filter(Boolean)
    .join(', ');
  const contact = media.contact.trim();
  const contactHref = /^[^\s@]+@[^\s@]+$/.test(contact)
    ? `mailto:${contact}`
    : /^https?:\/\//.test(contact)
      ? contact
      : '';
  return (
    <header className="media-header">
      {media.icon_url ? (
        <img className="media-header__icon" src={media.icon_url} alt="" width={64} height={64} />
      ) : (
        <span className="media-header__icon media-header__icon--initial" aria-hidden="true">
          {media.name.slice(0, 1).toUpperCase()}
        </span>
      )}
      <div className="media-header__text">
        <h1 className="screen__title">{media.name}</h1>
        {area && <p className="media-header__area">{area}</p>}
        {media.about && <p className="media-header__about">{media.about}</p>}
        <ul className="media-header__links">
          {media.home_url && (
            <li>
              <a href={media.home_url} rel="noopener">
                {t('Media_Website', { host: hostOf(media.home_url) || media.home_url })}
              </a>
            </li>
          )}
          {contact && (
            <li>
              {t('Media_Contact')}:{' '}
              {contactHref ? (
                <a
                  href={contactHref}
                  onClick={
                    contactHref.startsWith('mailto:')
                      ? () =>
                          watchMailClient(() =>
                            emitPopup({ text: t('Web_EmailClientMissing'), kind: 'error' }),
                          )
                      : undefined
                  }
                >
                  {contact}
                </a>
              ) : (
                <span>{contact}</span>
              )}
            </li>
          )}
          {media.item_count > 0 && <li>{t('Media_Stories', { count: media.item_count })}</li>}
        </ul>
        {actions}
      </div>
    </header>
  );
}

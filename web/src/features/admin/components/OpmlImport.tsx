import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../i18n';
import { isApiError } from '../../../lib/api';
import { MAX_OPML_BYTES, type OpmlImportAnswer } from '../api';
import { useImportOpml } from '../hooks';

/** The file's text (FileReader: every browser, and jsdom in tests). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

function Report({ report }: { report: OpmlImportAnswer }) {
  const { t } = useTranslation();
  return (
    <div className="admin-report" role="status">
      <p>
        {t('Admin_OpmlAdded', {
          feeds: report.feeds_added,
          media: report.media_added,
        })}
      </p>
      {report.skipped.length > 0 && (
        <>
          <p>{t('Admin_OpmlSkipped', { n: report.skipped.length })}</p>
          <ul className="admin-report__skipped">
            {report.skipped.map((line, i) => (
              <li key={`${line.url}-${i}`}>
                <span className="admin-feeds__url">{line.url || '—'}</span>: {line.why}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** Import an OPML file: its text goes to the server, which reports what it added and skipped. */
export function OpmlImport() {
  const { t } = useTranslation();
  const importer = useImportOpml();
  const [file, setFile] = useState<File | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const titleId = useId();
  const errorId = useId();
  const error =
    localError ??
    (importer.isError
      ? isApiError(importer.error) && importer.error.message
        ? importer.error.message
        : t('Web_UnknownError')
      : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    importer.reset();
    setLocalError(null);
    if (!file) {
      setLocalError(t('Admin_OpmlChoose'));
      return;
    }
    if (file.size > MAX_OPML_BYTES) {
      setLocalError(t('Admin_OpmlTooLarge'));
      return;
    }
    let text: string;
    try {
      text = await readText(file);
    } catch {
      setLocalError(t('Admin_OpmlUnreadable'));
      return;
    }
    importer.mutate(text);
  }

  return (
    <form className="admin-form" onSubmit={(e) => void submit(e)} aria-labelledby={titleId}>
      <h3 id={titleId} className="admin-form__title">
        {t('Admin_ImportOpml')}
      </h3>
      <label className="admin-field admin-field--wide">
        <span>{t('Admin_OpmlFile')}</span>
        <input
          type="file"
          accept=".opml,.xml,text/x-opml,text/xml,application/xml"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            setLocalError(null);
          }}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
        />
      </label>
      <div className="admin-actions admin-field--wide">
        <button
          type="submit"
          className="button"
          disabled={importer.isPending}
          aria-busy={importer.isPending}
        >
          {importer.isPending ? t('Admin_Importing') : t('Admin_ImportAction')}
        </button>
      </div>
      {error && (
        <p id={errorId} className="admin-error admin-field--wide" role="alert">
          {error}
        </p>
      )}
      {importer.isSuccess && (
        <div className="admin-field--wide">
          <Report report={importer.data} />
        </div>
      )}
    </form>
  );
}

/** Page navigation built on lib/pagination (range 3 before, 1 after by default). */
import { useTranslation } from 'react-i18next';
import { paginationRange } from '@/lib/pagination';
import { Icon } from './Icon';

type Props = {
  page: number;
  count: number;
  onChange: (page: number) => void;
  before?: number;
  after?: number;
};

export function Pagination({ page, count, onChange, before = 3, after = 1 }: Props) {
  const { t } = useTranslation();
  if (count <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <button
        type="button"
        className="page-btn"
        disabled={page <= 1}
        onClick={() => onChange(page - 1)}
        aria-label={t('pagination.previous')}
      >
        <Icon name="chevronLeft" size={18} />
      </button>
      <ul>
        {paginationRange(page, count, before, after).map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                className="page-btn"
                aria-current={item === page ? 'page' : undefined}
                aria-label={t('pagination.page', { page: item })}
                onClick={() => onChange(item)}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} className="page-gap" aria-hidden="true">
              …
            </li>
          ),
        )}
      </ul>
      <button
        type="button"
        className="page-btn"
        disabled={page >= count}
        onClick={() => onChange(page + 1)}
        aria-label={t('pagination.next')}
      >
        <Icon name="chevronRight" size={18} />
      </button>
    </nav>
  );
}

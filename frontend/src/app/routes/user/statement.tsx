import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { StatementList } from '@/features/statement/components/StatementList';
import { useDocumentTitle } from '@/hooks/use-document-title';

// The slip modal (features/slips) loads only when opened.
const SlipTableModal = lazy(() => import('@/features/slips/components/SlipTableModal'));

export default function StatementRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('statement.title'));
  const [slipsOpen, setSlipsOpen] = useState(false);
  const queryClient = useQueryClient();
  return (
    <div className="stack-lg">
      <div className="page-head">
        <h1 className="page-title">{t('statement.title')}</h1>
        <button type="button" className="btn btn-secondary" onClick={() => setSlipsOpen(true)}>
          <Icon name="doc" size={18} />
          {t('slips.open')}
        </button>
      </div>
      <StatementList />
      {slipsOpen && (
        <Suspense fallback={null}>
          <SlipTableModal
            open
            onClose={() => setSlipsOpen(false)}
            onCredited={() => void queryClient.invalidateQueries({ queryKey: ['statement'] })}
          />
        </Suspense>
      )}
    </div>
  );
}

/** Copies a value and says so in a toast: 'Copied: {text}' or 'Failed to copy'. */
import { useTranslation } from 'react-i18next';
import { Icon } from './Icon';
import { useToast } from './Toast';

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  const toast = useToast();
  return (
    <button
      type="button"
      className="icon-btn icon-btn-sm"
      aria-label={t('common.copy', { label })}
      onClick={async () => {
        if (await copyText(text)) toast(t('common.copied', { text }), 'success');
        else toast(t('common.copyFailed'), 'danger');
      }}
    >
      <Icon name="copy" size={18} />
    </button>
  );
}

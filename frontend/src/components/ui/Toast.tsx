/**
 * Toasts: short messages that disappear after 4 s (spec §9). The region is a manual popover so
 * that it stays above open modal dialogs (both live in the browser's top layer).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export const TOAST_MS = 4000;

export type ToastTone = 'info' | 'success' | 'danger';
type Toast = { id: number; message: string; tone: ToastTone };
type ShowToast = (message: string, tone?: ToastTone) => void;

const ToastContext = createContext<ShowToast>(() => undefined);

export function useToast(): ShowToast {
  return useContext(ToastContext);
}

function supportsPopover(el: HTMLElement): boolean {
  return typeof el.showPopover === 'function';
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const region = useRef<HTMLDivElement>(null);

  const dismiss = useCallback((id: number) => {
    setToasts((list) => list.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback<ShowToast>(
    (message, tone = 'info') => {
      const id = nextId.current++;
      setToasts((list) => [...list.slice(-2), { id, message, tone }]);
      window.setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );

  useEffect(() => {
    const el = region.current;
    if (!el || !supportsPopover(el)) return;
    // Re-show on each change so the region is the newest top-layer element, above any dialog.
    if (el.matches(':popover-open')) el.hidePopover();
    if (toasts.length > 0) el.showPopover();
  }, [toasts]);

  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div
        ref={region}
        className="toasts"
        {...{ popover: 'manual' }}
        role="region"
        aria-label={t('common.notifications')}
      >
        <div aria-live="polite" aria-atomic="false">
          {toasts.map((toast) => (
            <div key={toast.id} className={`toast toast-${toast.tone}`} role="status">
              <span>{toast.message}</span>
              <button
                type="button"
                className="icon-btn icon-btn-sm"
                onClick={() => dismiss(toast.id)}
                aria-label={t('common.dismiss')}
              >
                <span aria-hidden="true">×</span>
              </button>
            </div>
          ))}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

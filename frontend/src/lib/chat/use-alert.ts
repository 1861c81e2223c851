/** A chat alert: one line shown for 4 s (spec §5), replaced by the next. */
import { useCallback, useEffect, useState } from 'react';
import { ALERT_MS } from './types';

export function useAlert(): [string | null, (text: string) => void] {
  const [alert, setAlert] = useState<{ text: string; at: number } | null>(null);
  useEffect(() => {
    if (!alert) return undefined;
    const timer = window.setTimeout(() => setAlert(null), ALERT_MS);
    return () => window.clearTimeout(timer);
  }, [alert]);
  const show = useCallback((text: string) => setAlert({ text, at: Date.now() }), []);
  return [alert?.text ?? null, show];
}

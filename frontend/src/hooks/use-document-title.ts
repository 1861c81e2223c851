import { useEffect } from 'react';
import { useAppName } from './use-app-name';

/** Sets the tab title to "<page> · <app name>". */
export function useDocumentTitle(title: string): void {
  const appName = useAppName();
  useEffect(() => {
    document.title = title ? `${title} · ${appName}` : appName;
  }, [title, appName]);
}

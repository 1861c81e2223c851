/**
 * A route screen loaded on demand together with the string parts it shows (lib/locale-files.ts):
 * both downloads start at once and the screen renders when both are in, so it never shows raw
 * keys. For the URL being opened, main.tsx calls `load` and `prefetch` before the first render,
 * so that the screen's chunks and main data download while the app starts, not after it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadStrings } from '@/lib/i18n';
import type { StringPart } from '@/lib/locale-files';

type ScreenModule = { default: ComponentType };

type Options = {
  /** Every part the screen and the modals it opens show; the up-front strings are implied. */
  strings?: readonly StringPart[];
  /** Starts the queries the screen's first paint shows. */
  prefetch?: (client: QueryClient) => Promise<unknown>;
};

export type Page = {
  Component: LazyExoticComponent<ComponentType>;
  load: () => Promise<ScreenModule>;
  strings: readonly StringPart[];
  prefetch: (client: QueryClient) => void;
};

export function lazyPage(
  importScreen: () => Promise<ScreenModule>,
  { strings = [], prefetch }: Options = {},
): Page {
  let loading: Promise<ScreenModule> | undefined;
  const load = () => {
    loading ??= Promise.all([importScreen(), loadStrings(strings)]).then(([screen]) => screen);
    return loading;
  };
  return {
    Component: lazy(load),
    load,
    strings,
    // prefetchQuery never throws: a failed fetch is asked again, and reported, by the screen.
    prefetch: (client) => void prefetch?.(client),
  };
}

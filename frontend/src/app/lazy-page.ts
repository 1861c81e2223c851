/**
 * A route screen loaded on demand together with the string parts it shows (lib/locale-files.ts):
 * both downloads start at once and the screen renders when both are in, so it never shows raw
 * keys. For the URL being opened, index.html already preloads the screen's chunks and strings
 * (app/first-screens.json, plugins/preload-first-screen.ts) and main.tsx calls `load` and
 * `prefetch` before the first render, so that they download while the app starts, not after.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createElement, lazy, useState, type ComponentType } from 'react';
import { loadStrings } from '@/lib/i18n';
import type { Artwork } from '@/lib/early-requests';
import type { StringPart } from '@/lib/locale-files';

export type ScreenModule = { default: ComponentType };

export type PageOptions = {
  /** Every part the screen and the modals it opens show; the up-front strings are implied. */
  strings?: readonly StringPart[];
  /** Starts the queries the screen's first paint shows. */
  prefetch?: (client: QueryClient) => Promise<unknown>;
  /** Images the first paint shows whose addresses come in the prefetched data. */
  artwork?: readonly Artwork[];
};

export type Page = {
  /** The screen's source module, from frontend/ (e.g. 'src/app/routes/login.tsx'). */
  module: string;
  /** The screen: rendered at once when its module is in, else through React.lazy. */
  Component: ComponentType;
  load: () => Promise<ScreenModule>;
  strings: readonly StringPart[];
  prefetch: (client: QueryClient) => void;
  artwork: readonly Artwork[];
};

export function lazyPage(
  module: string,
  importScreen: () => Promise<ScreenModule>,
  { strings = [], prefetch, artwork = [] }: PageOptions = {},
): Page {
  let loading: Promise<ScreenModule> | undefined;
  let loaded: ComponentType | undefined;
  const load = () => {
    loading ??= Promise.all([importScreen(), loadStrings(strings)]).then(([screen]) => {
      loaded = screen.default;
      return screen;
    });
    return loading;
  };
  const Lazy = lazy(load);
  // React.lazy suspends on its first render even when the module is in: a fallback committed and
  // a second render for each screen. main.tsx waits for the first screen's modules, so that one
  // renders in one go. Chosen once per mount: switching would remount the screen.
  function Component() {
    const [Screen] = useState(() => loaded ?? Lazy);
    return createElement(Screen);
  }
  Component.displayName = `Page(${module})`;
  return {
    module,
    Component,
    load,
    strings,
    // prefetchQuery never throws: a failed fetch is asked again, and reported, by the screen.
    prefetch: (client) => void prefetch?.(client),
    artwork,
  };
}

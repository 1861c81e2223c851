/**
 * Writing a message: Enter sends, Enter with Shift (or Ctrl, Alt, Meta) makes a new line; text is
 * 1–2000 characters, never blank; the paperclip attaches an image or a video (checked first).
 */
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/Icon';
import { ACCEPT, MAX_TEXT, checkFile, sendableText, type MediaKind } from '@/lib/chat/types';

type Props = {
  onText: (text: string) => void;
  onFile: (kind: MediaKind, file: File) => void;
  onAlert: (text: string) => void;
  disabled?: boolean;
  /** Extra controls (the agent's reply builder). */
  extra?: ReactNode;
};

export function Composer({ onText, onFile, onAlert, disabled, extra }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const id = useId();

  const submit = () => {
    if (!sendableText(text)) return;
    onText(text);
    setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    if (event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault();
    submit();
  };

  const onPick = (file: File | undefined) => {
    if (!file) return;
    const check = checkFile(file);
    if (!check.ok) {
      onAlert(check.reason === 'tooLarge' ? t('chat.tooLarge', { n: check.maxMb }) : t('chat.notSupported'));
      return;
    }
    onFile(check.kind, file);
  };

  return (
    <form
      className="chat-composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {extra}
      <div className="chat-composer-row">
        <input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          accept={ACCEPT}
          className="visually-hidden"
          tabIndex={-1}
          aria-label={t('chat.attach')}
          onChange={(event) => {
            onPick(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        <button
          type="button"
          className="icon-btn chat-attach"
          aria-label={t('chat.attach')}
          disabled={disabled}
          onClick={() => fileInput.current?.click()}
        >
          <Icon name="clip" />
        </button>
        <label htmlFor={`${id}-text`} className="visually-hidden">
          {t('chat.message')}
        </label>
        <textarea
          id={`${id}-text`}
          className="chat-input"
          rows={1}
          maxLength={MAX_TEXT}
          value={text}
          placeholder={t('chat.placeholder')}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="icon-btn chat-send" aria-label={t('chat.send')} disabled={disabled || !sendableText(text)}>
          <Icon name="send" />
        </button>
      </div>
    </form>
  );
}

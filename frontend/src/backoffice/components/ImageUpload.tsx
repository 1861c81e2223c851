/**
 * "Upload image": sends the chosen file to `POST /api/backoffice/images` (the server judges it
 * by content and bounds its size) and hands back the public address of the stored image, for
 * any operator text that shows a picture (bonus banners, invite and refund banners).
 */
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { boApi } from '../lib/api';
import { useBoErrorText } from '../lib/errors';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

export function ImageUpload({ label, onUploaded }: { label: string; onUploaded: (url: string) => void }) {
  const { t } = useTranslation();
  const errorText = useBoErrorText();
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return boApi.post('/api/backoffice/images', form as never);
    },
    onSuccess: (image) => onUploaded(image.url),
  });
  return (
    <>
      <label className="bo-btn bo-btn-sm bo-upload">
        {t('bo.promotions.upload')}
        <input
          type="file"
          accept={ACCEPT}
          className="visually-hidden"
          aria-label={label}
          disabled={upload.isPending}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) upload.mutate(file);
            event.target.value = '';
          }}
        />
      </label>
      {upload.isError && (
        <p className="field-error" role="alert">
          {errorText(upload.error)}
        </p>
      )}
    </>
  );
}

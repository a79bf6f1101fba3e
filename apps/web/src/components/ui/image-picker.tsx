import { useId, useState, type ChangeEvent } from 'react';
import { uploadImage } from '../../lib/upload-image';
import { Spinner } from './spinner';

export interface ImagePickerProps {
  /** Accessible name of the file input and the preview's alt text. */
  label: string;
  /** Text in the empty box, e.g. "Tap to upload". */
  hint: string;
  value: string | null;
  onChange: (url: string | null) => void;
}

/** Exactly one image per picker (spec section 9): uploaded at once, previewed, replaced by picking again. */
export function ImagePicker({ label, hint, value, onChange }: ImagePickerProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBusy(true);
    try {
      onChange(await uploadImage(file));
    } catch {
      // The API client already showed why.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-sm text-muted">{label}</span>
      <label
        htmlFor={id}
        className="relative flex aspect-[16/10] w-full cursor-pointer items-center justify-center overflow-hidden rounded-lg border border-dashed border-border bg-surface text-sm text-muted hover:border-accent"
      >
        {value ? <img src={value} alt={label} className="size-full object-contain" /> : <span>{hint}</span>}
        {busy && (
          <span className="absolute inset-0 flex items-center justify-center bg-black/40">
            <Spinner />
          </span>
        )}
      </label>
      <input id={id} type="file" accept="image/png,image/jpeg,image/webp" aria-label={label} className="sr-only" onChange={(e) => void onPick(e)} />
    </div>
  );
}

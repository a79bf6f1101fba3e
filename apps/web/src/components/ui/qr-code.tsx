import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** A QR code image of `value`, drawn in the browser. */
export function QrCode({ value, label, size = 168 }: { value: string; label: string; size?: number }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(value, { width: size, margin: 1 })
      .then((url) => live && setSrc(url))
      .catch(() => live && setSrc(null));
    return () => {
      live = false;
    };
  }, [value, size]);
  return (
    <div className="flex justify-center">
      {src ? (
        <img src={src} alt={label} width={size} height={size} className="rounded-lg bg-white p-1" />
      ) : (
        <span style={{ width: size, height: size }} className="animate-pulse rounded-lg bg-surface-2" />
      )}
    </div>
  );
}

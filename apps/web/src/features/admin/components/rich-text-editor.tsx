import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKey } from './dynamic-key';

const COMMANDS = [
  ['bold', 'B'],
  ['italic', 'I'],
  ['insertUnorderedList', '•'],
  ['insertOrderedList', '1.'],
] as const;

/** A small rich-text editor (bold, italic, lists, links); the server sanitizes what is stored. */
export function RichTextEditor({ label, value, onChange }: { label: string; value: string; onChange: (html: string) => void }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (box.current && box.current.innerHTML !== value) box.current.innerHTML = value;
    // Only the first value is written in; afterwards the editor owns its content.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const run = (command: string, arg?: string) => {
    box.current?.focus();
    document.execCommand(command, false, arg);
    onChange(box.current?.innerHTML ?? '');
  };
  const link = () => {
    const url = window.prompt(t('admin.link_prompt'));
    if (url && /^https?:\/\//i.test(url)) run('createLink', url);
  };
  return (
    <div className="flex flex-col gap-1 text-sm">
      <span className="text-muted">{label}</span>
      <div role="toolbar" aria-label={t('admin.formatting')} className="flex gap-1">
        {COMMANDS.map(([command, text]) => (
          <button key={command} type="button" className="rounded border border-border px-2 py-1" aria-label={t(adminKey(`admin.cmd.${command}`))} onMouseDown={(e) => e.preventDefault()} onClick={() => run(command)}>
            {text}
          </button>
        ))}
        <button type="button" className="rounded border border-border px-2 py-1" aria-label={t('admin.cmd.link')} onMouseDown={(e) => e.preventDefault()} onClick={link}>
          <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1" />
          </svg>
        </button>
      </div>
      <div
        ref={box}
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        contentEditable
        suppressContentEditableWarning
        className="prose min-h-48 rounded-lg border border-border bg-surface px-3 py-2 text-text outline-none focus:border-accent [&_h2]:mt-3 [&_h2]:font-semibold [&_ol]:list-decimal [&_ol]:ps-5 [&_p]:mt-2 [&_ul]:list-disc [&_ul]:ps-5"
        onInput={() => onChange(box.current?.innerHTML ?? '')}
      />
    </div>
  );
}

import { API_KEY_SCOPES, type ApiKeyScope } from '@tp/contract/schemas/auth';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { useCreateApiKey } from '../api/create-api-key';

/** Expiry choices, in days from now; none keeps the key until it is revoked. */
const EXPIRY_DAYS = [7, 30, 90, 365] as const;
const NAME_MAX = 60;

interface CreateForm {
  name: string;
  scopes: ApiKeyScope[];
  ipAllow: string;
  expiryDays: string;
  totp: string;
}

/** Name, scopes, optional allow-list and expiry, and the second factor when it is on; answers the new key once. */
export function ApiKeyCreateForm({ needsTotp, onCreated }: { needsTotp: boolean; onCreated: (key: string) => void }) {
  const { t } = useTranslation();
  const create = useCreateApiKey();
  const { register, handleSubmit, reset, formState } = useForm<CreateForm>({
    defaultValues: { name: '', scopes: ['read'], ipAllow: '', expiryDays: '', totp: '' },
  });
  const { errors } = formState;

  const onSubmit = handleSubmit((values) => {
    const days = Number(values.expiryDays);
    create.mutate(
      {
        name: values.name.trim(),
        scopes: values.scopes,
        ip_allow: values.ipAllow.trim(),
        expires_at: days ? Date.now() + days * 86_400_000 : undefined,
        totp: needsTotp ? values.totp.trim() : undefined,
      },
      {
        onSuccess: (made) => {
          reset();
          onCreated(made.key);
        },
      },
    );
  });

  return (
    <form
      noValidate
      onSubmit={(e) => void onSubmit(e)}
      aria-labelledby="api-key-create-title"
      className="flex flex-col gap-4 rounded-xl bg-surface p-4"
    >
      <h2 id="api-key-create-title" className="font-medium">
        {t('account.api_keys.create_title')}
      </h2>
      <Field
        label={t('account.api_keys.name')}
        placeholder={t('account.api_keys.name_placeholder')}
        maxLength={NAME_MAX}
        autoComplete="off"
        data-testid="api-key-name"
        error={errors.name?.message}
        {...register('name', { validate: (v) => Boolean(v.trim()) || t('account.api_keys.name_required') })}
      />
      <fieldset className="flex flex-col gap-2" aria-describedby="api-key-scope-note">
        <legend className="mb-1.5 text-sm text-muted">{t('account.api_keys.scopes')}</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="flex items-start gap-2.5 text-sm">
            <input
              type="checkbox"
              value={scope}
              data-testid={`api-key-scope-${scope}`}
              className="mt-0.5 size-4 accent-accent"
              {...register('scopes', { validate: (v) => (Array.isArray(v) && v.length > 0) || t('account.api_keys.scope_required') })}
            />
            <span>{t(`account.api_keys.scope_${scope}`)}</span>
          </label>
        ))}
        <p id="api-key-scope-note" className="rounded-lg border border-border px-3 py-2 text-xs text-muted">
          {t('account.api_keys.never_withdraw')}
        </p>
        {errors.scopes?.message && (
          <p role="alert" className="text-xs text-down">
            {errors.scopes.message}
          </p>
        )}
      </fieldset>
      <Field
        label={t('account.api_keys.ip_allow')}
        hint={t('account.api_keys.ip_allow_hint')}
        placeholder="203.0.113.7 10.0.0.0/8"
        dir="ltr"
        autoComplete="off"
        data-testid="api-key-ips"
        {...register('ipAllow')}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor="api-key-expiry" className="text-sm text-muted">
          {t('account.api_keys.expiry')}
        </label>
        <select
          id="api-key-expiry"
          data-testid="api-key-expiry"
          className="rounded-lg border border-border bg-surface px-3 py-2.5 text-text outline-none focus:border-accent"
          {...register('expiryDays')}
        >
          <option value="">{t('account.api_keys.expiry_never')}</option>
          {EXPIRY_DAYS.map((days) => (
            <option key={days} value={days}>
              {t(`account.api_keys.expiry_${days}`)}
            </option>
          ))}
        </select>
      </div>
      {needsTotp && (
        <Field
          label={t('account.totp_code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          data-testid="api-key-totp"
          error={errors.totp?.message}
          {...register('totp', { validate: (v) => /^\d{6}$/.test(v.trim()) || t('account.api_keys.totp_required') })}
        />
      )}
      {create.error && (
        <p role="alert" data-testid="api-key-create-error" className="text-sm text-down">
          {create.error.message}
        </p>
      )}
      <Button type="submit" block disabled={create.isPending} data-testid="api-key-create">
        {t('account.api_keys.create')}
      </Button>
    </form>
  );
}

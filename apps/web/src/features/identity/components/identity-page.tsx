import { useState, type FormEvent } from 'react';
import { ReviewStatus } from '@tp/contract/constants';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { ErrorState } from '../../../components/ui/error-state';
import { Field } from '../../../components/ui/field';
import { CheckIcon } from '../../../components/ui/icons';
import { ImagePicker } from '../../../components/ui/image-picker';
import { PageHeader } from '../../../components/ui/page-header';
import { RealAccountOnly } from '../../../components/ui/real-account-only';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import { isDemoUser, useSessionStore } from '../../../lib/session-store';
import { useIdentityCenter, type IdentityCenter } from '../api/get-identity-center';
import { useSubmitRealName } from '../api/submit-real-name';

/** Name, id number, exactly one front and one back image (spec section 5); after a rejection, what was sent, to correct. */
function IdentityForm({ previous }: { previous?: IdentityCenter }) {
  const { t } = useTranslation();
  const [name, setName] = useState(previous?.name ?? '');
  const [cardId, setCardId] = useState(previous?.card_id ?? '');
  const [front, setFront] = useState<string | null>(previous?.front_pic || null);
  const [back, setBack] = useState<string | null>(previous?.reverse_pic || null);
  const [error, setError] = useState<string | null>(null);
  const submit = useSubmitRealName();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(t('identity.name_required'));
    if (!cardId.trim()) return setError(t('identity.card_required'));
    if (!front || !back) return setError(t('identity.images_required'));
    setError(null);
    submit.mutate({ name: name.trim(), card_id: cardId.trim(), front_pic: front, reverse_pic: back });
  };

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <Field label={t('identity.name')} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
      <Field label={t('identity.card_id')} autoComplete="off" value={cardId} onChange={(e) => setCardId(e.target.value)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <ImagePicker label={t('identity.front')} hint={t('identity.upload_hint')} value={front} onChange={setFront} />
        <ImagePicker label={t('identity.back')} hint={t('identity.upload_hint')} value={back} onChange={setBack} />
      </div>
      {error && (
        <p role="alert" className="text-sm text-down">
          {error}
        </p>
      )}
      <Button type="submit" block disabled={submit.isPending}>
        {t('identity.submit')}
      </Button>
    </form>
  );
}

function StatusCard({ center }: { center: IdentityCenter }) {
  const { t } = useTranslation();
  const verified = center.review_status === ReviewStatus.VERIFIED;
  return (
    <section className="flex flex-col items-center gap-3 rounded-xl bg-surface p-6 text-center">
      <span
        className={`flex size-12 items-center justify-center rounded-full ${verified ? 'bg-up/15 text-up' : 'bg-accent/15 text-accent'}`}
      >
        <CheckIcon className="size-6" />
      </span>
      <h2 className="text-lg font-semibold">{verified ? t('identity.finish') : t('identity.waiting')}</h2>
      <p className="text-sm text-muted">{verified ? t('identity.finish_hint') : t('identity.waiting_hint')}</p>
      <dl className="mt-2 grid w-full grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-start text-sm">
        <dt className="text-muted">{t('identity.name')}</dt>
        <dd>{center.name}</dd>
        <dt className="text-muted">{t('identity.card_id')}</dt>
        <dd dir="ltr" className="text-start">
          {center.card_id}
        </dd>
      </dl>
    </section>
  );
}

function IdentityContent() {
  const { t } = useTranslation();
  const user = useSessionStore((state) => state.user);
  const center = useIdentityCenter(!isDemoUser(user));
  if (center.isPending) return <SkeletonRows rows={4} />;
  if (center.isError) return <ErrorState onRetry={() => void center.refetch()} />;
  const status = center.data.review_status;
  if (status === ReviewStatus.UNDER_REVIEW || status === ReviewStatus.VERIFIED) return <StatusCard center={center.data} />;
  return (
    <div className="flex flex-col gap-4">
      {status === ReviewStatus.REJECTED && (
        <div role="alert" className="rounded-lg border border-down/50 bg-down/10 p-3 text-sm">
          <p className="font-medium text-down">{t('identity.rejected')}</p>
          <p className="mt-1">{t('identity.reject_reason', { reason: center.data.reject_reason })}</p>
        </div>
      )}
      <p className="text-sm text-muted">{t('identity.intro')}</p>
      <IdentityForm previous={status === ReviewStatus.REJECTED ? center.data : undefined} />
    </div>
  );
}

/** /mine/auth: the form, then under review, then verified, or the rejection reason with the form again. */
export function IdentityPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('pages.auth')} />
      <RealAccountOnly>
        <div className="mx-auto w-full max-w-xl p-4">
          <IdentityContent />
        </div>
      </RealAccountOnly>
    </>
  );
}

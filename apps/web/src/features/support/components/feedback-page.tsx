import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { PageHeader } from '../../../components/ui/page-header';
import { useSubmitFeedback } from '../api/submit-feedback';
import { FEEDBACK_CONTACT_MAX, FEEDBACK_CONTENT_MAX } from './chat-messages';

interface FeedbackForm {
  content: string;
  contact: string;
}

/** /feedback: a message (and optional contact) stored for staff, confirmed in a dialog. */
export function FeedbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const submit = useSubmitFeedback();
  const [confirmed, setConfirmed] = useState(false);
  const { register, handleSubmit, watch, reset, formState } = useForm<FeedbackForm>({ defaultValues: { content: '', contact: '' } });
  const length = watch('content').length;
  const contentError = formState.errors.content?.message;

  const onSubmit = handleSubmit((values) =>
    submit.mutate(
      { content: values.content.trim(), contact: values.contact.trim() },
      {
        onSuccess: () => {
          reset();
          setConfirmed(true);
        },
      },
    ),
  );

  return (
    <>
      <PageHeader title={t('pages.feedback')} />
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="mx-auto flex w-full max-w-xl flex-col gap-4 p-4">
        <p className="text-sm text-muted">{t('support.feedback_intro')}</p>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="feedback-content" className="text-sm text-muted">
            {t('support.feedback_content')}
          </label>
          <textarea
            id="feedback-content"
            rows={7}
            placeholder={t('support.feedback_placeholder')}
            aria-invalid={contentError ? true : undefined}
            aria-describedby={contentError ? 'feedback-content-error' : undefined}
            className="resize-y rounded-lg border border-border bg-surface px-3 py-2.5 text-text outline-none placeholder:text-muted/70 focus:border-accent"
            {...register('content', {
              validate: (value) => {
                const text = value.trim();
                if (!text) return t('support.feedback_content_required');
                if (text.length > FEEDBACK_CONTENT_MAX) return t('support.feedback_content_too_long', { max: FEEDBACK_CONTENT_MAX });
                return true;
              },
            })}
          />
          <div className="flex items-start gap-2 text-xs">
            {contentError && (
              <p id="feedback-content-error" role="alert" className="flex-1 text-down">
                {contentError}
              </p>
            )}
            <span className={`ms-auto tabular-nums ${length > FEEDBACK_CONTENT_MAX ? 'text-down' : 'text-muted'}`} dir="ltr">
              {length}/{FEEDBACK_CONTENT_MAX}
            </span>
          </div>
        </div>
        <Field
          label={t('support.feedback_contact')}
          placeholder={t('support.feedback_contact_placeholder')}
          autoComplete="email"
          error={formState.errors.contact?.message}
          {...register('contact', {
            validate: (value) => value.trim().length <= FEEDBACK_CONTACT_MAX || t('support.feedback_contact_too_long', { max: FEEDBACK_CONTACT_MAX }),
          })}
        />
        <Button type="submit" block disabled={submit.isPending}>
          {submit.isPending ? t('support.feedback_submitting') : t('support.feedback_submit')}
        </Button>
      </form>
      <Dialog
        open={confirmed}
        onClose={() => setConfirmed(false)}
        title={t('support.feedback_thanks_title')}
        footer={
          <>
            <Button variant="secondary" block onClick={() => setConfirmed(false)}>
              {t('support.feedback_another')}
            </Button>
            <Button block onClick={() => navigate('/', { replace: true })}>
              {t('support.feedback_done')}
            </Button>
          </>
        }
      >
        <p>{t('support.feedback_thanks')}</p>
      </Dialog>
    </>
  );
}

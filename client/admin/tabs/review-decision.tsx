/**
 * The decision on a piece waiting for review: PUBLISH, or REQUEST CHANGES with a reason the artist receives. Two
 * staff members deciding at once: the server lets one win and tells the other by code, which shows here.
 */
import { useState } from 'react';
import { ArtStatus } from '#shared/domain.ts';
import type { ReviewItem } from '#shared/admin-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { adminErrorText } from '../admin-errors.ts';
import { ART_STATUS_LABELS, labelOf } from '../labels.ts';
import type { Notice } from '../parts.tsx';
import { ReasonForm } from '../reason-form.tsx';

interface ReviewDecisionProps {
  item: ReviewItem;
  onDecided: (notice: Notice) => void;
  onFailed: (notice: Notice) => void;
}

/** After a decision, the lists and counts that depend on it are fetched again. */
function useAfterReview() {
  const utils = trpc.useUtils();
  return () =>
    Promise.all([
      utils.admin.queue.invalidate(),
      utils.admin.overview.invalidate(),
      utils.admin.reviewItem.invalidate(),
      utils.admin.staffLog.invalidate(),
    ]);
}

export function ReviewDecision({ item, onDecided, onFailed }: ReviewDecisionProps) {
  const publish = trpc.admin.publish.useMutation();
  const requestChanges = trpc.admin.requestChanges.useMutation();
  const refresh = useAfterReview();
  const [publishing, setPublishing] = useState(false);
  const artToken = item.art.token;

  if (item.art.status !== ArtStatus.Submitted) {
    return (
      <p className="admin-notice admin-notice--info" data-testid="review-decided">
        This piece is not waiting for review: it is {labelOf(ART_STATUS_LABELS, item.art.status).toLowerCase()}.
      </p>
    );
  }

  const onPublish = async () => {
    setPublishing(true);
    try {
      const result = await publish.mutateAsync({ artToken });
      const opened = result.openedCellTokens.length;
      onDecided({
        kind: 'success',
        text: `Published. The artist has been e-mailed; ${opened === 1 ? 'one neighbouring square' : `${opened} neighbouring squares`} opened.`,
      });
    } catch (error) {
      onFailed({ kind: 'error', text: adminErrorText(error) });
    } finally {
      setPublishing(false);
      await refresh();
    }
  };

  const onRequestChanges = async (reason: string) => {
    try {
      await requestChanges.mutateAsync({ artToken, reason });
      onDecided({
        kind: 'success',
        text: 'Changes requested. The artist has been e-mailed your reason and can resubmit.',
      });
    } catch (error) {
      // Shown above the decision, which may vanish: the piece may have been decided by someone else meanwhile.
      onFailed({ kind: 'error', text: adminErrorText(error) });
    }
    await refresh();
  };

  return (
    <section
      className="admin-panel admin-decision"
      aria-labelledby="review-decision-title"
      data-testid="review-decision"
    >
      <h2 id="review-decision-title" className="admin-subtitle">
        Decide
      </h2>
      <div className="admin-decision__publish">
        <button
          type="button"
          className="button"
          onClick={() => void onPublish()}
          disabled={publishing}
          aria-busy={publishing || undefined}
          data-testid="publish-button"
        >
          {publishing ? 'Publishing…' : 'Publish'}
        </button>
        <p className="field__hint">
          The piece goes live on the tree, its neighbouring squares open, and the artist is e-mailed its link.
        </p>
      </div>
      <ReasonForm
        testId="request-changes-form"
        label="Reason for requesting changes"
        hint="The artist receives this in an e-mail and sees it in the editor."
        submitLabel="Request changes"
        onSubmit={onRequestChanges}
      />
    </section>
  );
}

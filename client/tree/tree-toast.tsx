/** A small, polite message over the tree that fades by itself: what a find found, or why a square could not open. */
import { useEffect } from 'react';

export interface ToastMessage {
  id: number;
  text: string;
}

export function TreeToast({ message, onDone }: { message: ToastMessage | null; onDone: () => void }) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onDone, 3200);
    return () => clearTimeout(timer);
  }, [message, onDone]);
  return (
    <div className="tree-toast-region" role="status" aria-live="polite">
      {message && (
        <p key={message.id} className="tree-toast">
          {message.text}
        </p>
      )}
    </div>
  );
}

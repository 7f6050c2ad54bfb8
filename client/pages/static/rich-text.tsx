/**
 * The small markup of our long copy (pages/copy/*.ts): a block is a paragraph or a list, and a paragraph may hold
 * tokens that become links: {help-email} (a mailto link to the help address of the initial parameters), {privacy},
 * {terms}, {contact}, {faqs}. Copy stays plain data; links stay real router links.
 */
import { Fragment, type ReactNode } from 'react';
import { Link } from '#client/router/react.tsx';
import { contactSettings } from '#client/app/contact-details.tsx';

export type RichBlock = string | { list: readonly string[] };

const TOKEN = /\{(help-email|privacy|terms|contact|faqs)\}/g;

/** The help address as a mailto link. */
export function HelpEmailLink() {
  const address = contactSettings().helpEmail;
  return (
    <a href={`mailto:${address}`} data-testid="help-email">
      {address}
    </a>
  );
}

function tokenNode(token: string, key: number): ReactNode {
  switch (token) {
    case 'help-email':
      return <HelpEmailLink key={key} />;
    case 'privacy':
      return (
        <Link key={key} to="/privacy">
          privacy policy
        </Link>
      );
    case 'terms':
      return (
        <Link key={key} to="/terms">
          terms
        </Link>
      );
    case 'contact':
      return (
        <Link key={key} to="/contact">
          contact us
        </Link>
      );
    case 'faqs':
      return (
        <Link key={key} to="/faqs">
          FAQs
        </Link>
      );
    default:
      return token;
  }
}

export function RichInline({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  let last = 0;
  let index = 0;
  for (const match of text.matchAll(TOKEN)) {
    parts.push(text.slice(last, match.index));
    parts.push(tokenNode(match[1]!, index++));
    last = match.index + match[0].length;
  }
  parts.push(text.slice(last));
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>{part}</Fragment>
      ))}
    </>
  );
}

export function RichBlocks({ blocks }: { blocks: readonly RichBlock[] }) {
  return (
    <>
      {blocks.map((block, i) =>
        typeof block === 'string' ? (
          <p key={i}>
            <RichInline text={block} />
          </p>
        ) : (
          <ul key={i} className="prose-list">
            {block.list.map((item, j) => (
              <li key={j}>
                <RichInline text={item} />
              </li>
            ))}
          </ul>
        ),
      )}
    </>
  );
}
